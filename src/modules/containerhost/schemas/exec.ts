import { type Static, Type } from 'typebox';
import { Nullable } from '../../../core/http-schemas.js';
import { Environment } from './containers.js';

/** Commands run in a container: to completion (exec), or interactively (the terminal WebSocket). */

export const ExecRequest = Type.Object({
  cmd: Type.Array(Type.String({ maxLength: 4096 }), {
    minItems: 1,
    maxItems: 256,
    description: 'command and arguments (no shell unless you run one)',
  }),
  env: Type.Optional(Environment),
  workingDir: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'absolute path' })),
  user: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 256,
      pattern: '^[a-zA-Z0-9_.-]+(:[a-zA-Z0-9_.-]+)?$',
      description: 'user[:group] or uid[:gid]',
    }),
  ),
  timeoutSeconds: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 600, default: 60, description: 'how long to wait for the command' }),
  ),
});

export const ExecResult = Type.Object({
  exitCode: Nullable(Type.Integer({ description: 'null when the time limit ended the wait' })),
  stdout: Type.String(),
  stderr: Type.String(),
  truncated: Type.Boolean({ description: 'output past 1 MiB per stream was dropped' }),
  timedOut: Type.Boolean(),
  durationMs: Type.Integer(),
});

const TerminalSize = (description: string) =>
  Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description }));

export const TerminalQuery = Type.Object({
  cmd: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), {
      minItems: 1,
      maxItems: 64,
      default: ['/bin/sh'],
      description: 'command and arguments, one ?cmd= each; default /bin/sh',
    }),
  ),
  cols: TerminalSize('initial width'),
  rows: TerminalSize('initial height'),
});

/** A control message of the terminal, sent as a text frame. */
export const TerminalResize = Type.Object({
  type: Type.Literal('resize'),
  cols: Type.Integer({ minimum: 1, maximum: 1000 }),
  rows: Type.Integer({ minimum: 1, maximum: 1000 }),
});

export type ExecRequest = Static<typeof ExecRequest>;
export type ExecResult = Static<typeof ExecResult>;
export type TerminalQuery = Static<typeof TerminalQuery>;
export type TerminalResize = Static<typeof TerminalResize>;
