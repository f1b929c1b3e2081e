-- SIEM export: destinations (credentials sealed, soft-deleted so their delivery records survive) and
-- delivery records, one per batch of consecutive audit events (first_event_seq .. last_event_seq).
create table siem_destinations (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  kind text not null check (kind in ('webhook', 'splunk_hec', 'syslog')),
  enabled boolean not null default true,
  settings jsonb not null,
  secret_sealed text,
  batch_size integer not null,
  flush_interval_ms integer not null,
  max_attempts integer not null,
  cursor_seq bigint not null,
  last_success_at timestamptz,
  last_failure_at timestamptz,
  last_error text,
  consecutive_failures integer not null default 0,
  circuit_open_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);
create unique index siem_destinations_name_idx on siem_destinations (name) where deleted_at is null;

create table siem_deliveries (
  id uuid primary key default gen_random_uuid(),
  destination_id uuid not null references siem_destinations(id),
  status text not null check (status in ('queued', 'delivering', 'retrying', 'delivered', 'failed', 'paused', 'discarded')),
  event_count integer not null,
  first_event_seq bigint not null,
  last_event_seq bigint not null,
  first_event_id uuid not null,
  last_event_id uuid not null,
  attempts integer not null default 0,
  max_attempts integer not null,
  last_error text,
  last_attempt_at timestamptz,
  next_attempt_at timestamptz not null default now(),
  claim_token uuid,
  lease_expires_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  delivered_at timestamptz
);
create index siem_deliveries_due_idx on siem_deliveries (next_attempt_at) where status in ('queued', 'retrying');
create index siem_deliveries_leased_idx on siem_deliveries (lease_expires_at) where status = 'delivering';
create index siem_deliveries_destination_idx on siem_deliveries (destination_id, created_at);
create index siem_deliveries_status_idx on siem_deliveries (status, created_at);
