import { type Static, Type } from 'typebox';
import { ScopeList } from '../../core/auth/scope-input.js';
import { Name, NamedObject, SearchText, Timestamp, Uuid, WriteOnly } from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';

/** The shapes of the users area: route schemas, and through `Static` the service's types. */

export const User = NamedObject('User', {
  id: Uuid(),
  email: Type.String(),
  name: Type.String(),
  groupId: Uuid(),
  groupName: Type.String(),
  scopes: Type.Array(Type.String()),
  disabled: Type.Boolean(),
  hasPassword: Type.Boolean(),
  totpEnabled: Type.Boolean({ description: 'Two-factor sign-in (TOTP) is on' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const Group = NamedObject('Group', {
  id: Uuid(),
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  requireMfa: Type.Boolean({ description: 'Members must sign in with a second factor (TOTP)' }),
  userCount: Type.Integer(),
  createdAt: Timestamp,
});

const Password = WriteOnly(Type.String({ minLength: 8, maxLength: 1024 }));
const Scopes = ScopeList('e.g. logging:view, databases:*, *');
const GroupRef = Type.String({ minLength: 1, maxLength: 255, description: 'group name or id' });

export const UserListQuery = Type.Object({
  ...PaginationQueryFields,
  q: SearchText('the email or the name'),
  groupName: Type.Optional(Type.String({ maxLength: 255 })),
  disabled: Type.Optional(Type.Boolean()),
});

export const NewUser = Type.Object({
  // Local accounts such as admin@localhost are valid, so only the local@domain shape is required.
  email: Type.String({ pattern: '^[^\\s@]+@[^\\s@]+$', maxLength: 320 }),
  name: Name,
  group: GroupRef,
  password: Type.Optional(Password),
});

export const UserName = Type.Object({ name: Name });
export const UserGroup = Type.Object({ group: GroupRef });
export const UserDisabled = Type.Object({ disabled: Type.Boolean() });
export const UserPassword = Type.Object({ password: Password });

export const NewGroup = Type.Object({ name: Name, scopes: Scopes });
export const GroupScopes = Type.Object({ scopes: Scopes });
export const GroupChange = Type.Object(
  {
    name: Type.Optional(Name),
    requireMfa: Type.Optional(
      Type.Boolean({ description: 'Members without TOTP must enrol at their next password login' }),
    ),
  },
  { minProperties: 1 },
);

export type User = Static<typeof User>;
export type Group = Static<typeof Group>;
export type UserListQuery = Static<typeof UserListQuery>;
export type NewUser = Static<typeof NewUser>;
export type NewGroup = Static<typeof NewGroup>;
export type GroupChange = Static<typeof GroupChange>;
