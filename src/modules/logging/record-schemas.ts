import { type Static, Type } from 'typebox';
import {
  Name,
  NamedObject,
  NullableTimestamp,
  StringEnum,
  Timestamp,
  TimestampText,
  Uuid,
} from '../../core/http-schemas.js';
import { PaginationQueryFields } from '../../core/pagination.js';
import type { LogFieldDefinition, SchemaViolationPolicy } from '../../db/schema/index.js';
import { MATCH_MODES } from './record-filters.js';

/** The shapes of log ingest, search and tail, and of ingest tokens. */

// Ingest tokens

export const TokenParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 255 }),
  tokenId: Type.String({ minLength: 1, maxLength: 255 }),
});
export const NewIngestToken = Type.Object({
  name: Name,
  expiresAt: Type.Optional(
    Type.Union([TimestampText, Type.Null()], { description: 'null or absent: never' }),
  ),
});
export const IngestToken = NamedObject('IngestToken', {
  id: Uuid(),
  environmentId: Uuid(),
  name: Type.String(),
  createdAt: Timestamp,
  expiresAt: NullableTimestamp,
  lastUsedAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
});
export const IssuedIngestToken = NamedObject('IssuedIngestToken', {
  ...IngestToken.properties,
  token: Type.String({ description: 'the secret (`igl_…`); shown this once, never again' }),
});
export const TokenListQuery = Type.Object({ ...PaginationQueryFields });

// Ingest

export const IngestIssue = Type.Object({
  index: Type.Integer({ description: 'position of the record in the request, from 0' }),
  path: Type.Array(Type.Union([Type.String(), Type.Integer()])),
  message: Type.String(),
});
export const IngestResult = Type.Object({
  accepted: Type.Integer({ description: 'records stored (flagged ones included)' }),
  rejected: Type.Integer(),
  flagged: Type.Integer({ description: 'records stored with schema violations (onSchemaViolation: keep)' }),
  errors: Type.Array(IngestIssue, { description: 'why records were rejected (the first 1,000 problems)' }),
});

// Records, search and tail

export const LogRecordView = Type.Object({
  environmentId: Uuid(),
  id: Type.String({ description: 'unique within the gateway; increases with arrival' }),
  timestamp: Timestamp,
  receivedAt: Timestamp,
  level: Type.String(),
  service: Type.Union([Type.String(), Type.Null()]),
  message: Type.String(),
  traceId: Type.Union([Type.String(), Type.Null()]),
  spanId: Type.Union([Type.String(), Type.Null()]),
  fields: Type.Record(Type.String(), Type.Unknown()),
  violations: Type.Union([
    Type.Array(
      Type.Object({ path: Type.Array(Type.Union([Type.String(), Type.Integer()])), message: Type.String() }),
    ),
    Type.Null(),
  ]),
});

const FIELD_FILTER = '^(not\\.)?field\\.';
/** Filters shared by search, facets, histogram and tail. `field.<name>=<value>` are read separately. */
const FilterFields = {
  level: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'levels, comma-separated (trace, debug, info, warn, error, fatal)',
    }),
  ),
  service: Type.Optional(Type.String({ minLength: 1, maxLength: 255, description: 'exact service name' })),
  'service!': Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'not this service (written `service!=name`)' }),
  ),
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'full text on the message: words (all must occur), "a phrase", or, -excluded',
    }),
  ),
  match: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      description:
        'a substring (case-insensitive) or, with `mode=regex`, a regular expression (PostgreSQL syntax) the message must match; needs a time range of at most INFRAGATE_LOG_MATCH_MAX_HOURS',
    }),
  ),
  mode: Type.Optional(StringEnum(MATCH_MODES, 'how `match` reads (default substring)')),
};
const fieldFilters = {
  patternProperties: { [FIELD_FILTER]: Type.String({ maxLength: 1000 }) },
  description:
    'plus `field.<name>=<value>`: records whose field equals the value (text, number or boolean); `field.<name>!=<value>`: records whose field is absent or holds another value',
};
const TimeRange = {
  from: Type.Optional(Type.String({ format: 'date-time', description: 'inclusive' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'exclusive' })),
};

export const RecordSearchQuery = Type.Object(
  {
    ...TimeRange,
    ...FilterFields,
    cursor: Type.Optional(Type.String({ maxLength: 200, description: '`nextCursor` of the previous page' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  fieldFilters,
);
export const MultiSearchQuery = Type.Object(
  {
    environmentIds: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'the environments to search, comma-separated ids (at most 50)',
    }),
    ...RecordSearchQuery.properties,
  },
  fieldFilters,
);
export const RecordPage = Type.Object({
  data: Type.Array(LogRecordView),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});

export const FacetQuery = Type.Object(
  {
    ...TimeRange,
    ...FilterFields,
    field: Type.String({
      minLength: 1,
      maxLength: 100,
      pattern: '^[A-Za-z_@][A-Za-z0-9_.@-]*$',
      description: '`level`, `service`, or the name of a field',
    }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  fieldFilters,
);
export const Facets = Type.Object({
  field: Type.String(),
  values: Type.Array(Type.Object({ value: Type.Unknown(), count: Type.Integer() })),
});

export const HistogramQuery = Type.Object(
  {
    ...TimeRange,
    ...FilterFields,
    interval: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,4}[smhd]$',
        description: 'bucket width, e.g. 30s, 5m, 1h, 1d; default: about 60 buckets',
      }),
    ),
  },
  fieldFilters,
);
export const Histogram = Type.Object({
  from: Timestamp,
  to: Timestamp,
  intervalSeconds: Type.Integer(),
  buckets: Type.Array(
    Type.Object({
      start: Timestamp,
      count: Type.Integer(),
      levels: Type.Record(Type.String(), Type.Integer(), {
        description: 'the count per level, levels without records left out',
      }),
    }),
  ),
});

export const TailQuery = Type.Object({ ...FilterFields }, fieldFilters);

export type NewIngestToken = Static<typeof NewIngestToken>;
export type IngestToken = Static<typeof IngestToken>;
export type IssuedIngestToken = Static<typeof IssuedIngestToken>;
export type TokenListQuery = Static<typeof TokenListQuery>;
export type IngestIssue = Static<typeof IngestIssue>;
export type IngestResult = Static<typeof IngestResult>;
export type LogRecordView = Static<typeof LogRecordView>;
export type RecordSearchQuery = Static<typeof RecordSearchQuery>;
export type MultiSearchQuery = Static<typeof MultiSearchQuery>;
export type FacetQuery = Static<typeof FacetQuery>;
export type HistogramQuery = Static<typeof HistogramQuery>;
export type TailQuery = Static<typeof TailQuery>;

/** What an ingest token resolves to: its environment and what ingest needs to know of it. */
export interface IngestTarget {
  tokenId: string;
  environmentId: string;
  retentionDays: number;
  onSchemaViolation: SchemaViolationPolicy;
  maxBodyBytes: number;
  maxRecords: number;
  recordsPerSecond: number;
  bytesPerSecond: number;
  burstSeconds: number;
  /** The fields of the environment's schema; empty without one. */
  schema: LogFieldDefinition[];
}
