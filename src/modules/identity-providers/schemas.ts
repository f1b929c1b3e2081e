import { type Static, Type } from 'typebox';
import {
  Name,
  NamedObject,
  Nullable,
  SearchText,
  Timestamp,
  Uuid,
  WriteOnly,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';

/** The shapes of single sign-on: route schemas, and through `Static` the services' types. */

const GroupRef = Type.String({ minLength: 1, maxLength: 255, description: 'a gateway group, by name or id' });
const ScopeToken = Type.String({ pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,100}$' });
const ClaimName = Type.String({ minLength: 1, maxLength: 255 });

const GroupMap = Type.Record(Type.String({ minLength: 1, maxLength: 255 }), GroupRef, {
  maxProperties: 200,
  description:
    'Provider group → gateway group. At every sign-in the first entry whose provider group the ' +
    "user's groups claim holds decides the gateway group (else `defaultGroup`)",
});

const EmailDomains = Type.Array(Type.String({ minLength: 1, maxLength: 253 }), {
  maxItems: 100,
  description: 'Only emails under these domains may sign in (e.g. example.com); empty: any',
});

export const IdentityProvider = NamedObject('IdentityProvider', {
  id: Uuid(),
  name: Type.String(),
  issuer: Type.String(),
  clientId: Type.String(),
  scopes: Type.Array(Type.String()),
  groupsClaim: Nullable(Type.String()),
  groupMap: Type.Record(Type.String(), Type.String(), {
    description: 'Provider group → gateway group name',
  }),
  autoCreateUsers: Type.Boolean(),
  defaultGroup: Nullable(Type.String({ description: 'Gateway group name' })),
  allowedEmailDomains: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  hasClientSecret: Type.Boolean({
    description: 'false once a new issuer dropped the secret: nobody signs in through it until one is sent',
  }),
  redirectUri: Type.String({ description: 'The one redirect URI to register at the provider' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const ProviderFields = {
  name: Name,
  issuer: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'https URL whose `/.well-known/openid-configuration` describes the provider',
  }),
  clientId: Type.String({ minLength: 1, maxLength: 255 }),
  clientSecret: WriteOnly(
    Type.String({ minLength: 1, maxLength: 4096, description: 'Write-only; stored sealed' }),
  ),
  scopes: Type.Array(ScopeToken, {
    maxItems: 20,
    description: 'Requested scopes; `openid` is always added. Default: openid email profile',
  }),
  groupsClaim: ClaimName,
  groupMap: GroupMap,
  autoCreateUsers: Type.Boolean({
    description: 'Create an account at the first sign-in of an unknown email',
  }),
  defaultGroup: GroupRef,
  allowedEmailDomains: EmailDomains,
  enabled: Type.Boolean(),
};

export const NewIdentityProvider = Type.Object({
  name: ProviderFields.name,
  issuer: ProviderFields.issuer,
  clientId: ProviderFields.clientId,
  clientSecret: ProviderFields.clientSecret,
  scopes: Type.Optional(ProviderFields.scopes),
  groupsClaim: Type.Optional(ProviderFields.groupsClaim),
  groupMap: Type.Optional(ProviderFields.groupMap),
  autoCreateUsers: Type.Optional(ProviderFields.autoCreateUsers),
  defaultGroup: Type.Optional(ProviderFields.defaultGroup),
  allowedEmailDomains: Type.Optional(ProviderFields.allowedEmailDomains),
  enabled: Type.Optional(ProviderFields.enabled),
});

export const IdentityProviderChange = Type.Object(
  {
    name: Type.Optional(ProviderFields.name),
    issuer: Type.Optional(ProviderFields.issuer),
    clientId: Type.Optional(ProviderFields.clientId),
    clientSecret: Type.Optional(ProviderFields.clientSecret),
    scopes: Type.Optional(ProviderFields.scopes),
    groupsClaim: Type.Optional(Nullable(ProviderFields.groupsClaim)),
    groupMap: Type.Optional(ProviderFields.groupMap),
    autoCreateUsers: Type.Optional(ProviderFields.autoCreateUsers),
    defaultGroup: Type.Optional(Nullable(ProviderFields.defaultGroup)),
    allowedEmailDomains: Type.Optional(ProviderFields.allowedEmailDomains),
    enabled: Type.Optional(ProviderFields.enabled),
  },
  { minProperties: 1 },
);

export const IdentityProviderListQuery = Type.Object({
  ...PaginationQueryFields,
  q: SearchText(),
});

/** What the sign-in page shows: one button per enabled provider. */
export const SignInProvider = Type.Object({ id: Uuid(), name: Type.String() });

export const ProviderParams = Type.Object({ providerId: Uuid() });

export const StartQuery = Type.Object({
  next: Type.Optional(
    Type.String({
      maxLength: 2048,
      pattern: '^/(?![/\\\\])',
      default: '/',
      description: 'Console path to land on after signing in (a path of this origin)',
    }),
  ),
});

const CallbackParameter = Type.Optional(Type.String({ maxLength: 4096 }));
export const CallbackQuery = Type.Object({
  code: CallbackParameter,
  state: CallbackParameter,
  iss: CallbackParameter,
  error: CallbackParameter,
  error_description: CallbackParameter,
});

export type IdentityProvider = Static<typeof IdentityProvider>;
export type NewIdentityProvider = Static<typeof NewIdentityProvider>;
export type IdentityProviderChange = Static<typeof IdentityProviderChange>;
export type IdentityProviderListQuery = Static<typeof IdentityProviderListQuery>;
export type SignInProvider = Static<typeof SignInProvider>;
export type CallbackQuery = Static<typeof CallbackQuery>;
