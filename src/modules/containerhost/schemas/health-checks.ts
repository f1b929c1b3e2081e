import { type Static, Type } from 'typebox';
import {
  NamedObject,
  Nullable,
  NullableTimestamp,
  StringEnum,
  Timestamp,
  Uuid,
} from '../../../core/http-schemas.js';
import { PaginationQueryFields } from '../../../core/pagination.js';
import { BODY_MATCH_MODES, HEALTH_SCHEMES, HEALTH_STATUSES } from '../../../db/schema/index.js';

/** HTTP(S) health checks of containers: their configuration, saved checks and results. */

/** What a saved check or a test uses for each field the body leaves out. */
export const HEALTH_CHECK_DEFAULTS = {
  enabled: true,
  scheme: 'http',
  hostPort: null,
  containerPort: null,
  path: '/',
  statusMin: 200,
  statusMax: 399,
  expectedBody: null,
  bodyMatchMode: 'includes',
  intervalSeconds: 30,
  timeoutSeconds: 5,
  slowThreshold: 1000,
} as const;

const Port16 = Type.Integer({ minimum: 1, maximum: 65535 });
// The test body keeps absent fields absent (no schema defaults) so a saved config can fill them in.
const healthCheckFields = (withDefaults: boolean) => {
  const d = (field: keyof typeof HEALTH_CHECK_DEFAULTS) =>
    withDefaults ? { default: HEALTH_CHECK_DEFAULTS[field] } : {};
  return {
    enabled: Type.Optional(Type.Boolean()),
    scheme: Type.Optional(StringEnum(HEALTH_SCHEMES, undefined, d('scheme'))),
    hostPort: Type.Optional(Nullable(Port16)),
    containerPort: Type.Optional(Nullable(Port16)),
    path: Type.Optional(Type.String({ minLength: 1, maxLength: 500, ...d('path') })),
    statusMin: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, ...d('statusMin') })),
    statusMax: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, ...d('statusMax') })),
    expectedBody: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
    bodyMatchMode: Type.Optional(StringEnum(BODY_MATCH_MODES, undefined, d('bodyMatchMode'))),
    intervalSeconds: Type.Optional(Type.Integer({ minimum: 5, maximum: 86400, ...d('intervalSeconds') })),
    timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 120, ...d('timeoutSeconds') })),
    slowThreshold: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 120000, description: 'milliseconds', ...d('slowThreshold') }),
    ),
  };
};

/** The body of a one-off test: fields that overlay the saved configuration. */
export const HealthCheckTestBody = Type.Object(healthCheckFields(false));
/** The body that saves a check: absent fields take their defaults. */
export const HealthCheckSaveBody = Type.Object(healthCheckFields(true));

export const HealthResult = NamedObject('HealthCheckProbe', {
  ok: Type.Boolean(),
  status: StringEnum(HEALTH_STATUSES),
  httpStatus: Nullable(Type.Integer()),
  responseMs: Nullable(Type.Integer()),
  slow: Type.Boolean(),
  bodyMatched: Nullable(Type.Boolean()),
  url: Nullable(Type.String()),
  error: Type.Optional(Type.String()),
  checkedAt: Timestamp,
});

/** A result kept by a saved check. */
export const SavedHealthResult = NamedObject('HealthCheckResult', { id: Uuid(), ...HealthResult.properties });
export const SavedHealthResultQuery = Type.Object(PaginationQueryFields);

export const SavedHealthCheck = NamedObject('HealthCheck', {
  id: Uuid(),
  nodeId: Uuid(),
  containerName: Type.String(),
  enabled: Type.Boolean(),
  scheme: Type.String(),
  hostPort: Nullable(Type.Integer()),
  containerPort: Nullable(Type.Integer()),
  path: Type.String(),
  statusMin: Type.Integer(),
  statusMax: Type.Integer(),
  expectedBody: Nullable(Type.String()),
  bodyMatchMode: Type.String(),
  intervalSeconds: Type.Integer(),
  timeoutSeconds: Type.Integer(),
  slowThreshold: Type.Integer(),
  nextRunAt: Timestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

/** Fields given in a request; the rest come from the saved check or the defaults. */
export type HealthCheckInput = Static<typeof HealthCheckTestBody>;
/** A complete configuration, every field decided. */
export type HealthCheckConfig = Required<HealthCheckInput>;
export type HealthResult = Static<typeof HealthResult>;
export type SavedHealthResult = Static<typeof SavedHealthResult>;
export type SavedHealthCheck = Static<typeof SavedHealthCheck>;

/** The statuses of the overview: a result's status, `disabled` for a check switched off, `unknown` before its first run. */
export const OVERVIEW_STATUSES = [...HEALTH_STATUSES, 'unknown'] as const;

export const HealthOverviewQuery = Type.Object({
  ...PaginationQueryFields,
  status: Type.Optional(StringEnum(OVERVIEW_STATUSES)),
  nodeId: Type.Optional(Uuid('only the checks of this node')),
});

/** A saved check across nodes, with its latest result. */
export const HealthOverviewItem = NamedObject('HealthCheckOverview', {
  id: Uuid(),
  nodeId: Uuid(),
  nodeName: Type.String(),
  containerName: Type.String(),
  enabled: Type.Boolean(),
  status: StringEnum(OVERVIEW_STATUSES),
  lastCheckedAt: NullableTimestamp,
  httpStatus: Nullable(Type.Integer()),
  responseMs: Nullable(Type.Integer()),
  error: Nullable(Type.String()),
  url: Nullable(Type.String()),
  intervalSeconds: Type.Integer(),
  nextRunAt: Timestamp,
});

export type OverviewStatus = (typeof OVERVIEW_STATUSES)[number];
export type HealthOverviewQuery = Static<typeof HealthOverviewQuery>;
export type HealthOverviewItem = Static<typeof HealthOverviewItem>;
