import { type Static, Type } from 'typebox';
import { NamedObject, Timestamp, Uuid, WriteOnly } from '../../../core/http-schemas.js';
import { PaginationQueryFields } from '../../../core/pagination.js';
import { REGISTRY_PATTERN } from '../image-references.js';

/** Registry credentials stored per node (`/nodes/:nodeId/registry-credentials`); passwords are write-only. */

const Registry = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: REGISTRY_PATTERN,
  description: 'registry host[:port], e.g. registry.example:5000; docker.io for Docker Hub',
});

export const RegistryParams = Type.Object({ nodeId: Uuid('node id'), registry: Registry });
export const RegistryCredentialQuery = Type.Object(PaginationQueryFields);

/** Credentials for one registry, as a pull request carries them or the node stores them. */
export const RegistryLogin = NamedObject('RegistryLogin', {
  username: Type.String({ minLength: 1, maxLength: 255 }),
  password: WriteOnly(
    Type.String({ minLength: 1, maxLength: 4096, description: 'password or access token' }),
  ),
});

export const RegistryCredential = NamedObject('RegistryCredential', {
  registry: Type.String(),
  username: Type.String(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export type RegistryLogin = Static<typeof RegistryLogin>;
export type RegistryCredential = Static<typeof RegistryCredential>;
