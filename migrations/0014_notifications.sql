-- Notifications: channels (secrets sealed), rules, the last known state of watched conditions, and the
-- outbox of deliveries (one per event and channel, written in the transaction of the change that caused
-- it) with every attempt to send it.
create table notification_channels (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  kind text not null check (kind in ('webhook', 'slack', 'email')),
  enabled boolean not null default true,
  settings jsonb not null,
  secrets_sealed text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table notification_rules (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  event text not null check (event in ('containerhost.health_check.changed', 'certificates.expiring', 'certificates.expired', 'siem.destination.circuit_opened', 'siem.delivery.failed', 'repohost.token.expiring', 'auth.login.throttled', 'audit.chain.broken')),
  enabled boolean not null default true,
  filters jsonb not null default '{}',
  within_days integer[],
  renotify_minutes integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table notification_rule_channels (
  rule_id uuid not null references notification_rules(id) on delete cascade,
  channel_id uuid not null references notification_channels(id) on delete restrict,
  primary key (rule_id, channel_id)
);
create index notification_rule_channels_channel_idx on notification_rule_channels (channel_id);

create table notification_conditions (
  kind text not null check (kind in ('containerhost.health_check.changed', 'certificates.expiring', 'certificates.expired', 'siem.destination.circuit_opened', 'siem.delivery.failed', 'repohost.token.expiring', 'auth.login.throttled', 'audit.chain.broken')),
  resource_id text not null,
  state text not null,
  ok boolean not null,
  since timestamptz not null,
  changes integer not null,
  payload jsonb not null,
  updated_at timestamptz not null default now(),
  primary key (kind, resource_id)
);
create index notification_conditions_open_idx on notification_conditions (since) where not ok;

create table notification_deliveries (
  id uuid primary key default gen_random_uuid(),
  channel_id uuid not null references notification_channels(id) on delete cascade,
  rule_id uuid references notification_rules(id) on delete set null,
  event text not null check (event in ('containerhost.health_check.changed', 'certificates.expiring', 'certificates.expired', 'siem.destination.circuit_opened', 'siem.delivery.failed', 'repohost.token.expiring', 'auth.login.throttled', 'audit.chain.broken')),
  event_id text not null,
  payload jsonb not null,
  status text not null check (status in ('queued', 'delivering', 'retrying', 'delivered', 'failed')),
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
create unique index notification_deliveries_event_idx on notification_deliveries (channel_id, event_id);
create index notification_deliveries_due_idx on notification_deliveries (next_attempt_at) where status in ('queued', 'retrying');
create index notification_deliveries_leased_idx on notification_deliveries (lease_expires_at) where status = 'delivering';
create index notification_deliveries_channel_idx on notification_deliveries (channel_id, created_at);
create index notification_deliveries_rule_idx on notification_deliveries (rule_id, created_at);
create index notification_deliveries_status_idx on notification_deliveries (status, created_at);

create table notification_attempts (
  id uuid primary key default gen_random_uuid(),
  delivery_id uuid not null references notification_deliveries(id) on delete cascade,
  attempt integer not null,
  outcome text not null check (outcome in ('pending', 'succeeded', 'failed', 'interrupted')),
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  http_status integer,
  error text
);
create unique index notification_attempts_delivery_idx on notification_attempts (delivery_id, attempt);
