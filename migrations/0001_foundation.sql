-- Identity: groups with scopes, users, API tokens and browser sessions; the audit trail.
create table groups (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  scopes text[] not null default '{}'::text[],
  created_at timestamptz not null default now()
);

create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null unique,
  name text not null,
  group_id uuid not null references groups(id),
  password_hash text,
  disabled boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table auth_tokens (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  kind text not null check (kind in ('api', 'session')),
  name text not null,
  token_hash text not null unique,
  csrf_hash text,
  user_agent text,
  client_ip text,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  expires_at timestamptz,
  revoked_at timestamptz
);
create index auth_tokens_user_kind_idx on auth_tokens (user_id, kind);

create table audit_events (
  seq bigint primary key,
  id uuid not null unique,
  occurred_at timestamptz(3) not null,
  actor_id uuid,
  actor_email text,
  action text not null,
  target_type text,
  target_id text,
  outcome text not null check (outcome in ('success', 'failure')),
  request_id text,
  client_ip text,
  metadata jsonb not null,
  prev_hash text not null,
  hash text not null
);
create index audit_events_occurred_at_idx on audit_events (occurred_at);
create index audit_events_action_idx on audit_events (action);
create index audit_events_target_idx on audit_events (target_type, target_id);

insert into groups (name, scopes) values ('admins', array['*']);
