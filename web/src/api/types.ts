import type { paths } from './schema';

type SuccessStatus = 200 | 201;
type JsonBody<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;

/**
 * The JSON body of an operation's successful answer, read from the generated types:
 * `Answer<'/api/admin/users', 'get'>['data'][number]` is a user as the gateway lists it.
 */
export type Answer<Path extends keyof paths, Method extends keyof paths[Path]> = paths[Path][Method] extends {
  responses: infer Responses;
}
  ? JsonBody<Responses[SuccessStatus & keyof Responses]>
  : never;

/** The JSON body an operation accepts. */
export type Body<Path extends keyof paths, Method extends keyof paths[Path]> = paths[Path][Method] extends {
  requestBody?: infer Request;
}
  ? JsonBody<NonNullable<Request>>
  : never;

/** The query parameters an operation accepts. */
export type Query<Path extends keyof paths, Method extends keyof paths[Path]> = paths[Path][Method] extends {
  parameters: { query?: infer Parameters };
}
  ? NonNullable<Parameters>
  : never;

type EventStreamBody<Response> = Response extends { content: { 'text/event-stream': infer Data } }
  ? Data
  : never;

/**
 * The data of the main event of an operation's Server-Sent Events (the document describes a stream
 * by it): `EventData<'/api/containerhost/nodes/{nodeId}/images/pull', 'post'>` is one pull progress.
 */
export type EventData<
  Path extends keyof paths,
  Method extends keyof paths[Path],
> = paths[Path][Method] extends {
  responses: infer Responses;
}
  ? EventStreamBody<Responses[SuccessStatus & keyof Responses]>
  : never;
