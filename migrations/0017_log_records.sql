-- Logging environments become log stores: per-environment ingest settings, ingest tokens, and the
-- records themselves.

alter table logging_environments
  add column on_schema_violation text not null default 'reject' check (on_schema_violation in ('reject', 'keep')),
  add column ingest_max_body_bytes integer not null default 5242880,
  add column ingest_max_records integer not null default 10000,
  add column ingest_records_per_second integer not null default 10000,
  add column ingest_bytes_per_second integer not null default 10485760,
  add column ingest_burst_seconds integer not null default 10;

-- Write-only tokens of one environment; the secret is shown once, only its SHA-256 is kept.
create table logging_ingest_tokens (
  id uuid primary key default gen_random_uuid(),
  environment_id uuid not null references logging_environments(id) on delete cascade,
  name text not null,
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index logging_ingest_tokens_environment_idx on logging_ingest_tokens (environment_id);

-- Records, partitioned by environment and then by day (partitions are created at run time, ahead
-- of time by a job and on demand by ingest; retention drops whole day partitions of one
-- environment). Indexes declared here are created on every partition:
--   primary key   newest-first pages with a stable (occurred_at, id) cursor
--   BRIN          time-range scans for the histogram and facets, a few pages per day partition
--   GIN tsvector  full-text search on the message ('simple': no stemming, no stop words)
--   GIN jsonb     field filters as containment (fields @> '{"name": value}')
create table log_records (
  environment_id uuid not null,
  occurred_at timestamptz(3) not null,
  id bigserial not null,
  received_at timestamptz(3) not null default now(),
  level text not null check (level in ('trace', 'debug', 'info', 'warn', 'error', 'fatal')),
  service text,
  message text not null,
  trace_id text,
  span_id text,
  fields jsonb not null,
  violations jsonb,
  primary key (environment_id, occurred_at, id)
) partition by list (environment_id);
create index log_records_occurred_at_brin on log_records using brin (occurred_at);
create index log_records_message_fts on log_records using gin (to_tsvector('simple', message));
create index log_records_fields_gin on log_records using gin (fields jsonb_path_ops);
