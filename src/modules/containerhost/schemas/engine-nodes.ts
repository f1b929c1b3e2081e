import { type Static, Type } from 'typebox';
import { Name, NamedObject, Nullable, Timestamp, Uuid, WriteOnly } from '../../../core/http-schemas.js';

/** Engine nodes: the Docker Engine API endpoints the gateway manages (`/api/containerhost/nodes`). */

const Pem = Type.String({ minLength: 1, maxLength: 65_536 });

const EngineNodeFields = {
  name: Name,
  endpoint: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'unix:///path.sock, tcp://host:port or ssh://user@host[:port]',
  }),
  tlsCa: Type.Optional(Nullable(Pem)),
  tlsCert: Type.Optional(Nullable(Pem)),
  tlsKey: Type.Optional(WriteOnly(Nullable(Pem))),
  sshPrivateKey: Type.Optional(WriteOnly(Nullable(Pem))),
  helperImage: Type.Optional(
    Nullable(
      Type.String({ minLength: 1, maxLength: 512, description: 'image for volume-write helper containers' }),
    ),
  ),
};

/** The body that registers a node. */
export const EngineNodeRegistration = Type.Object(EngineNodeFields);
/** The body that changes a node: the same fields, all optional (`null` clears a secret). */
export const EngineNodeChanges = Type.Partial(EngineNodeRegistration);

/** A node as answered: secrets only as whether they are set. */
export const EngineNode = NamedObject('EngineNode', {
  id: Uuid(),
  name: Type.String(),
  endpoint: Type.String(),
  transport: Type.String(),
  tls: Type.Object({ ca: Type.Boolean(), cert: Type.Boolean(), key: Type.Boolean() }),
  hasSshKey: Type.Boolean(),
  helperImage: Nullable(Type.String()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** A node with what its engine says about itself (asked on every read). */
export const EngineNodeWithEngine = NamedObject('EngineNodeWithEngine', {
  ...EngineNode.properties,
  engine: Type.Object({
    reachable: Type.Boolean(),
    version: Type.String(),
    apiVersion: Type.String(),
    os: Nullable(Type.String()),
    arch: Nullable(Type.String()),
    kernelVersion: Nullable(Type.String()),
    components: Type.Array(Type.String()),
  }),
});

export type EngineNodeRegistration = Static<typeof EngineNodeRegistration>;
export type EngineNodeChanges = Static<typeof EngineNodeChanges>;
export type EngineNode = Static<typeof EngineNode>;
export type EngineNodeWithEngine = Static<typeof EngineNodeWithEngine>;
