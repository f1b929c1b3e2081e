import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TSchema } from 'typebox';
import { areaAccess } from '../../../core/auth/area-access.js';
import { validationError } from '../../../core/errors.js';
import type { FileRead } from '../archive.js';
import { FileBytes } from '../schemas/files.js';

export const { view, manage } = areaAccess('containerhost');

/** What the container-host routes declare: the scope each needs and their OpenAPI tag. */
export const tags = ['containerhost'];

/** Lets routes whose body is optional be called without one (validated as `{}`). */
export const emptyBodyAsObject = async (request: { body: unknown }) => {
  if (request.body === undefined || request.body === null) request.body = {};
};

/** A download: the file's bytes (`application/octet-stream`). */
export const FileDownload = {
  200: { description: 'the file', content: { 'application/octet-stream': { schema: FileBytes } } },
};

/**
 * An answer that is JSON, or Server-Sent Events when the query or `Accept` asks for a stream. The
 * stream is documented by the `data` of its main event (`description` names every event), so typed
 * clients read that shape from the document instead of writing it by hand. The description goes on
 * the answer, not the schema: a named schema stays one component wherever it is used.
 */
export const JsonOrEvents = (json: TSchema, events: { data: TSchema; description: string }) => ({
  200: {
    description: `JSON, or a stream of Server-Sent Events: ${events.description}`,
    content: {
      'application/json': { schema: json },
      'text/event-stream': { schema: events.data },
    },
  },
});

/** Sends a file read from an engine; the engine stream ends with the response (also when the client leaves). */
export function sendFile(reply: FastifyReply, file: FileRead, path: string): FastifyReply {
  const name = path.split('/').pop() || 'file';
  return reply
    .header('content-type', 'application/octet-stream')
    .header('content-length', String(file.size))
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(name)}`)
    .send(file.stream);
}

/**
 * Refuses every content type a routes file does not parse with 415 (JSON and application/octet-stream
 * are parsed; text/plain, which Fastify parses by default, is refused too).
 */
export function acceptOnlyJsonAndBytes(app: FastifyInstance, expected: string): void {
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', (_request, _payload, done) =>
    done(validationError([{ path: [], message: expected }], 415), undefined),
  );
}
