import { type Static, Type } from 'typebox';
import { EngineName, Labels } from './containers.js';

/** Creating and deleting a node's volumes. */

export const VolumeCreation = Type.Object({
  name: EngineName('volume name'),
  driver: Type.Optional(Type.String({ minLength: 1, maxLength: 64, default: 'local' })),
  labels: Type.Optional(Labels),
});

export const VolumeRemoveQuery = Type.Object({
  force: Type.Optional(
    Type.Boolean({ default: false, description: 'remove the containers using the volume first' }),
  ),
});

export type VolumeCreation = Static<typeof VolumeCreation>;
