import { type Static, Type } from 'typebox';
import { EngineName, Labels } from './containers.js';

/** Creating, deleting and connecting a node's networks. */

export const NetworkCreation = Type.Object({
  name: EngineName('network name'),
  driver: Type.Optional(Type.String({ minLength: 1, maxLength: 64, default: 'bridge' })),
  internal: Type.Optional(Type.Boolean({ default: false, description: 'no route to the outside' })),
  subnet: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'CIDR, e.g. 10.42.0.0/24' })),
  labels: Type.Optional(Labels),
});

export const Connection = Type.Object({
  containerId: Type.String({ minLength: 1, maxLength: 512 }),
  aliases: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 32, uniqueItems: true }),
  ),
});

export const DisconnectQuery = Type.Object({ force: Type.Optional(Type.Boolean({ default: false })) });
export const Disconnection = Type.Object({ containerId: Type.String({ minLength: 1, maxLength: 512 }) });

export type Disconnection = Static<typeof Disconnection>;
export type NetworkCreation = Static<typeof NetworkCreation>;
export type Connection = Static<typeof Connection>;
