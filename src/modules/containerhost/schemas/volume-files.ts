import { type Static, Type } from 'typebox';
import { StringEnum } from '../../../core/http-schemas.js';
import { FileBytes } from './files.js';

/** A volume's files: written (`PUT …/volumes/:name/files/write`, two body forms), browsed and read. */

const VolumePath = (description: string) => Type.String({ minLength: 1, maxLength: 1024, description });

export const VolumeWriteQuery = Type.Object({
  path: Type.Optional(VolumePath('path inside the volume, for a raw (application/octet-stream) body')),
});

/** The JSON form: the file's content as text, or as base64 for any bytes. */
export const VolumeFileJson = Type.Object({
  path: VolumePath('path inside the volume; a leading / is allowed'),
  content: Type.String({ description: 'the file: text (utf8) or base64, as `encoding` says' }),
  encoding: Type.Optional(StringEnum(['utf8', 'base64'] as const, undefined, { default: 'utf8' })),
});

/**
 * One schema per content type (the raw form: the body is the file itself, its path in `?path=`); any
 * other content type is answered 415.
 */
export const VolumeFileBody = {
  content: {
    'application/json': { schema: VolumeFileJson },
    'application/octet-stream': { schema: FileBytes },
  },
};

export type VolumeFileJson = Static<typeof VolumeFileJson>;

export const VolumeBrowseQuery = Type.Object({
  path: Type.Optional(VolumePath('directory inside the volume; default the root')),
});

export const VolumeReadQuery = Type.Object({ path: VolumePath('file inside the volume') });
