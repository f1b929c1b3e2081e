import { type Static, Type } from 'typebox';
import {
  Name,
  NamedObject,
  NullableTimestamp,
  StringEnum,
  Timestamp,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import { WIRE_PROTOCOLS } from '../../inference-catalog.js';

/** The shapes of the data plane's administration: consumer keys and model routes. */

/** A public model name: what a caller puts in `model`. */
const ModelName = Type.String({ minLength: 1, maxLength: 255, pattern: '^\\S+$' });
/** A model name or a glob of them (`*` matches any run of characters, `?` one). */
const ModelPattern = Type.String({ minLength: 1, maxLength: 255, pattern: '^\\S+$' });
const ModelPatterns = Type.Array(ModelPattern, {
  maxItems: 100,
  uniqueItems: true,
  description: 'model names or globs (`*`, `?`) the key may use; omitted or null: every model',
});
const ExpiresAt = Type.String({ format: 'date-time', description: 'must be in the future' });

export const ConsumerKey = NamedObject('InferenceKey', {
  id: Uuid(),
  name: Type.String(),
  keyPrefix: Type.String({ description: 'the first characters of the key, to tell keys apart' }),
  models: Type.Union([Type.Array(Type.String()), Type.Null()]),
  expiresAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
  lastUsedAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** The answer to a creation: the record plus the key itself, shown this once. */
export const IssuedConsumerKey = Type.Object({
  ...ConsumerKey.properties,
  key: Type.String({ description: 'the secret (`igk_…`), answered only here' }),
});

export const NewConsumerKey = Type.Object({
  name: Name,
  models: Type.Optional(Type.Union([ModelPatterns, Type.Null()])),
  expiresAt: Type.Optional(Type.Union([ExpiresAt, Type.Null()])),
});

export const ConsumerKeyChange = Type.Object({
  name: Type.Optional(Name),
  models: Type.Optional(Type.Union([ModelPatterns, Type.Null()])),
  expiresAt: Type.Optional(Type.Union([ExpiresAt, Type.Null()])),
});

export const KeyListQuery = Type.Object({
  ...PaginationQueryFields,
  revoked: Type.Optional(Type.Boolean({ description: 'true: only revoked keys; false: only live ones' })),
});

const Priority = Type.Integer({
  minimum: 0,
  maximum: 1000,
  description: 'lower is tried first; among equal priorities the weights spread the first try',
});
const Weight = Type.Integer({
  minimum: 1,
  maximum: 1000,
  description: 'among targets of the same priority, the share of requests each is tried first for',
});

export const NewRouteTarget = Type.Object({
  connectionId: Uuid(),
  upstreamModel: Type.String({ minLength: 1, maxLength: 255 }),
  priority: Type.Optional(Priority),
  weight: Type.Optional(Weight),
});

export const RouteTarget = Type.Object({
  connectionId: Uuid(),
  connectionName: Type.String(),
  wireProtocol: Type.Union([StringEnum(WIRE_PROTOCOLS), Type.Null()]),
  upstreamModel: Type.String(),
  priority: Type.Integer(),
  weight: Type.Integer(),
});

export const ModelRoute = NamedObject('InferenceRoute', {
  id: Uuid(),
  model: Type.String(),
  targets: Type.Array(RouteTarget),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const Targets = Type.Array(NewRouteTarget, { minItems: 1, maxItems: 20 });

export const NewModelRoute = Type.Object({ model: ModelName, targets: Targets });
export const ModelRouteChange = Type.Object({
  model: Type.Optional(ModelName),
  targets: Type.Optional(Targets),
});

export const RouteListQuery = Type.Object({ ...PaginationQueryFields });

export type ConsumerKey = Static<typeof ConsumerKey>;
export type IssuedConsumerKey = Static<typeof IssuedConsumerKey>;
export type NewConsumerKey = Static<typeof NewConsumerKey>;
export type ConsumerKeyChange = Static<typeof ConsumerKeyChange>;
export type KeyListQuery = Static<typeof KeyListQuery>;
export type NewRouteTarget = Static<typeof NewRouteTarget>;
export type RouteTarget = Static<typeof RouteTarget>;
export type ModelRoute = Static<typeof ModelRoute>;
export type NewModelRoute = Static<typeof NewModelRoute>;
export type ModelRouteChange = Static<typeof ModelRouteChange>;
export type RouteListQuery = Static<typeof RouteListQuery>;
