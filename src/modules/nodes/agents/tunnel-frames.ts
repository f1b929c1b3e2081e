import { type Static, type TSchema, Type } from 'typebox';
import { Check } from 'typebox/value';

/**
 * The messages of an agent's tunnel (one WebSocket, the agent dialling out). Control messages are
 * JSON text frames with a `type`; a frame of a type not listed here, or one that does not match its
 * shape, is a protocol violation and closes the tunnel. Shared by the gateway and the agent.
 */

/** The largest frame either side accepts; a larger one closes the tunnel (WebSocket code 1009). */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** Close codes of the tunnel besides the standard ones (1008 protocol violation, 1009 too big). */
export const TUNNEL_CLOSE = {
  /** The node's credential was revoked: do not come back with it. */
  revoked: 4001,
  /** A newer tunnel of the same agent replaced this one. */
  replaced: 4002,
  /** The agent did not say hello in time. */
  noHello: 4003,
} as const;

const Capabilities = Type.Object({ files: Type.Boolean(), docker: Type.Boolean(), metrics: Type.Boolean() });

const HostFacts = Type.Object({
  hostname: Type.String({ maxLength: 255 }),
  os: Type.String({ maxLength: 255 }),
  arch: Type.String({ maxLength: 64 }),
  cpus: Type.Integer({ minimum: 0, maximum: 65536 }),
  memoryBytes: Type.Integer({ minimum: 0 }),
});

/** The agent's first message: who it is and what its host is. */
export const Hello = Type.Object({
  type: Type.Literal('hello'),
  version: Type.String({ maxLength: 64 }),
  root: Type.String({ maxLength: 4096 }),
  facts: HostFacts,
  capabilities: Capabilities,
});

/** The gateway's answer to hello: the tunnel is up. */
export const Welcome = Type.Object({
  type: Type.Literal('welcome'),
  nodeId: Type.String(),
  heartbeatSeconds: Type.Integer(),
});

export type Hello = Static<typeof Hello>;
export type Welcome = Static<typeof Welcome>;

/** Why a frame was refused, as the close reason says it. */
export class FrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FrameError';
  }
}

/** Reads a text frame as one of `accepted`, or throws a FrameError naming what is wrong with it. */
export function parseFrame<T extends TSchema>(data: string, accepted: Record<string, T>): Static<T> {
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    throw new FrameError('a text frame must be one JSON object');
  }
  const type = (message as { type?: unknown } | null)?.type;
  const schema = typeof type === 'string' ? accepted[type] : undefined;
  if (!schema) throw new FrameError(`unknown frame type ${JSON.stringify(type ?? null).slice(0, 64)}`);
  if (!Check(schema, message)) throw new FrameError(`a ${type} frame does not have its shape`);
  return message as Static<T>;
}
