import { type Static, Type } from 'typebox';
import { NamedObject, Nullable, NullableTimestamp, StringOf } from '../../../core/http-schemas.js';

/** Files in a container (through the archive API) and the directory listings volumes share. */

const ContainerPath = (description: string) => Type.String({ minLength: 1, maxLength: 4096, description });

/** The bytes of a file, as a request body or an answer (no `type`: a parsed raw body is a Buffer). */
export const FileBytes = Type.Unsafe<Buffer>({ format: 'binary', description: 'the bytes of the file' });

export type EntryType = 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';

export const DirectoryEntry = NamedObject('DirectoryEntry', {
  name: Type.String(),
  type: StringOf<EntryType>({ description: 'file, directory, symlink, hardlink or other' }),
  size: Type.Number({ description: 'bytes (0 for anything but a file)' }),
  mode: Type.String({ description: 'permission bits in octal, e.g. 0644' }),
  mtime: NullableTimestamp,
  linkTarget: Nullable(Type.String()),
});

export const DirectoryListing = NamedObject('DirectoryListing', {
  path: Type.String(),
  entries: Type.Array(DirectoryEntry),
  truncated: Type.Boolean({
    description: 'the listing stopped early (over 10000 entries, or a tree too large to scan)',
  }),
});

export const ContainerBrowseQuery = Type.Object({
  path: Type.Optional(ContainerPath('absolute directory path; default /')),
});

export const ContainerFileQuery = Type.Object({ path: ContainerPath('absolute path of the file') });

export const ContainerDeleteQuery = Type.Object({
  path: ContainerPath('absolute path to delete'),
  recursive: Type.Optional(
    Type.Boolean({ default: false, description: 'delete a directory with its entries' }),
  ),
});

export const DirectoryCreation = Type.Object({ path: ContainerPath('absolute path of the new directory') });

export const FileMove = Type.Object({
  fromPath: Type.String({ minLength: 1, maxLength: 4096, description: 'absolute path' }),
  toPath: Type.String({ minLength: 1, maxLength: 4096, description: 'absolute path' }),
});

export type DirectoryEntry = Static<typeof DirectoryEntry>;
export type DirectoryListing = Static<typeof DirectoryListing>;
export type FileMove = Static<typeof FileMove>;
