import { type Static, Type } from 'typebox';
import { RegistryLogin } from './registry-credentials.js';

/** Pulling, deleting and pruning a node's images. */

export const ImagePull = Type.Object({
  image: Type.String({ minLength: 1, maxLength: 512, description: 'reference, e.g. nginx:1.27' }),
  credentials: Type.Optional(RegistryLogin),
});

/** One progress message of a pull: the layer it is about (if any), the engine's words and byte counts. */
export const PullProgress = Type.Object({
  layer: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  current: Type.Union([Type.Number(), Type.Null()]),
  total: Type.Union([Type.Number(), Type.Null()]),
});

export const ImageRemoveQuery = Type.Object({
  force: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'remove even when tagged several times or in use by a stopped container',
    }),
  ),
});

export const ImageRemoval = Type.Object({
  untagged: Type.Array(Type.String()),
  deleted: Type.Array(Type.String()),
});

export const ImagePrune = Type.Object({
  deleted: Type.Array(Type.String()),
  spaceReclaimed: Type.Number({ description: 'bytes' }),
});

export type ImagePull = Static<typeof ImagePull>;
export type PullProgress = Static<typeof PullProgress>;
export type ImageRemoval = Static<typeof ImageRemoval>;
export type ImagePrune = Static<typeof ImagePrune>;
