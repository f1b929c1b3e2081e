import { type Static, Type } from 'typebox';

/** Bodies of stopping a container and moving a file inside it. */

export const StopOptions = Type.Object({
  timeout: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 300,
      description: "seconds before SIGKILL; default the engine's",
    }),
  ),
});

export const FileMove = Type.Object({
  fromPath: Type.String({ minLength: 1, maxLength: 4096, description: 'absolute path' }),
  toPath: Type.String({ minLength: 1, maxLength: 4096, description: 'absolute path' }),
});

export type StopOptions = Static<typeof StopOptions>;
export type FileMove = Static<typeof FileMove>;
