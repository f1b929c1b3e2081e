import { type Static, Type } from 'typebox';
import { NamedObject, Nullable, StringOf } from '../../../core/http-schemas.js';

/** A container's logs and resource statistics, as JSON or as Server-Sent Events. */

const Instant = (description: string) =>
  Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: `${description}: UNIX seconds or an ISO-8601 date-time`,
    }),
  );

export const LogsQuery = Type.Object({
  tail: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 100_000 }), Type.Literal('all')], {
      default: 200,
      description: 'the last N lines, or all of them',
    }),
  ),
  since: Instant('lines from this time'),
  until: Instant('lines before this time'),
  timestamps: Type.Optional(Type.Boolean({ default: true, description: "answer each line's timestamp" })),
  stdout: Type.Optional(Type.Boolean({ default: true })),
  stderr: Type.Optional(Type.Boolean({ default: true })),
  follow: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'stream the lines as Server-Sent Events until the client leaves or the container stops',
    }),
  ),
});

/** The engine's two output streams of a container. */
export type OutputStream = 'stdout' | 'stderr';

/** A log line as answered: the stream, the engine's timestamp (RFC 3339, when asked), the text. */
export const LogLine = NamedObject('ContainerLogLine', {
  stream: StringOf<OutputStream>({ description: 'stdout or stderr' }),
  timestamp: Nullable(Type.String({ description: "the engine's RFC 3339 time of the line" })),
  line: Type.String(),
});

export const LogLines = Type.Object({
  data: Type.Array(LogLine),
  truncated: Type.Boolean({ description: 'the answer stopped at its size limit' }),
});

export const StatsQuery = Type.Object({
  stream: Type.Optional(
    Type.Boolean({ default: false, description: 'stream a sample per second as Server-Sent Events' }),
  ),
});

export const StatsSample = NamedObject('StatsSample', {
  cpuPercent: Nullable(Type.Number({ description: '100 = one CPU fully used' })),
  memoryBytes: Type.Number(),
  memoryLimitBytes: Nullable(Type.Number()),
  networkRxBytes: Type.Number(),
  networkTxBytes: Type.Number(),
  blockReadBytes: Type.Number(),
  blockWriteBytes: Type.Number(),
  pids: Nullable(Type.Integer()),
  readAt: Nullable(Type.String()),
});

export type LogLine = Static<typeof LogLine>;
export type LogsQuery = Static<typeof LogsQuery>;
export type LogLines = Static<typeof LogLines>;
export type StatsSample = Static<typeof StatsSample>;
