import { type Static, Type } from 'typebox';

/** Bodies and queries of the operator actions on a node's containers and networks. */

export const StopOptions = Type.Object({
  timeout: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 300,
      description: "seconds before SIGKILL; default the engine's",
    }),
  ),
});

export const DisconnectQuery = Type.Object({ force: Type.Optional(Type.Boolean({ default: false })) });
export const Disconnection = Type.Object({ containerId: Type.String({ minLength: 1, maxLength: 512 }) });

export const FileMove = Type.Object({
  fromPath: Type.String({ minLength: 1, maxLength: 4096, description: 'absolute path' }),
  toPath: Type.String({ minLength: 1, maxLength: 4096, description: 'absolute path' }),
});

export type StopOptions = Static<typeof StopOptions>;
export type FileMove = Static<typeof FileMove>;
export type Disconnection = Static<typeof Disconnection>;
