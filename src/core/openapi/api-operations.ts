import type { paths } from './api-types.js';

/**
 * The API's operations as its two clients see them, read from the types generated from the API
 * document (./api-types.d.ts): the CLI's ApiClient (src/cli/api-client.ts) and the console
 * (web/src/api/types.ts). An operation is named by its route template and method:
 * `Answer<'/api/admin/users', 'get'>['data'][number]` is a user as the gateway lists it.
 */

/** A method as the generated types spell it. */
export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The operation at a route template and method; never when there is none (or no such route). */
export type OperationAt<Path, M extends Method> = Path extends keyof paths
  ? NonNullable<paths[Path][M]>
  : never;

/** The route templates that have an operation for `method`. */
export type Route<M extends Method> = {
  [Path in keyof paths]: [OperationAt<Path, M>] extends [never] ? never : Path;
}[keyof paths];

type SuccessStatus = 200 | 201 | 202;
type Success<Operation> = Operation extends { responses: infer Responses }
  ? Responses[SuccessStatus & keyof Responses]
  : never;
type ContentOf<Message, Type extends string> = Message extends { content: infer Content }
  ? Type extends keyof Content
    ? Content[Type]
    : never
  : never;
type RequestOf<Operation> = Operation extends { requestBody?: infer Request } ? NonNullable<Request> : never;

/** The JSON body of an operation's successful answer. */
export type AnswerOf<Operation> = ContentOf<Success<Operation>, 'application/json'>;
/** The data of the main event of an operation's Server-Sent Events (the document describes a stream by it). */
export type EventDataOf<Operation> = ContentOf<Success<Operation>, 'text/event-stream'>;
/** The JSON body an operation accepts; never when it takes none, or takes raw bytes. */
export type BodyOf<Operation> = ContentOf<RequestOf<Operation>, 'application/json'>;
type RequestTypes<Operation> =
  RequestOf<Operation> extends { content: infer Content } ? keyof Content : never;

/**
 * Whether an operation may take a body other than JSON: one it describes so (a file), or one it does
 * not describe (the routes that read an archive or a chunk as it is).
 */
export type TakesRawBody<Operation> = [RequestOf<Operation>] extends [never]
  ? true
  : [Exclude<RequestTypes<Operation>, 'application/json'>] extends [never]
    ? false
    : true;
/** Whether an operation's body may be left out. */
export type BodyIsOptional<Operation> = Operation extends { requestBody: unknown } ? false : true;
/** The query parameters an operation accepts. */
export type QueryOf<Operation> = Operation extends { parameters: { query?: infer Query } }
  ? NonNullable<Query>
  : never;
/** The values of the placeholders of an operation's route (`{nodeId, containerId}`); never when it has none. */
export type PathParamsOf<Operation> = Operation extends {
  parameters: { path: infer Params extends Record<string, string> };
}
  ? Params
  : never;

/** The JSON body of an operation's successful answer. */
export type Answer<Path extends keyof paths, M extends Method & keyof paths[Path]> = AnswerOf<
  OperationAt<Path, M>
>;

/** The JSON body an operation accepts. */
export type Body<Path extends keyof paths, M extends Method & keyof paths[Path]> = BodyOf<
  OperationAt<Path, M>
>;

/** The query parameters an operation accepts. */
export type Query<Path extends keyof paths, M extends Method & keyof paths[Path]> = QueryOf<
  OperationAt<Path, M>
>;

/**
 * The data of the main event of an operation's Server-Sent Events:
 * `EventData<'/api/containerhost/nodes/{nodeId}/images/pull', 'post'>` is one pull progress.
 */
export type EventData<Path extends keyof paths, M extends Method & keyof paths[Path]> = EventDataOf<
  OperationAt<Path, M>
>;
