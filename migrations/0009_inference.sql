-- Inference providers: connections (credentials sealed) and OAuth sign-in sessions.
create table inference_connections (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null,
  name text not null unique,
  auth_type text not null check (auth_type in ('oauth', 'api_key', 'local')),
  base_url text,
  api_key_sealed text,
  access_token_sealed text,
  refresh_token_sealed text,
  access_token_expires_at timestamptz,
  token_scope text,
  last_refreshed_at timestamptz,
  last_refresh_error text,
  last_tested_at timestamptz,
  last_test_ok boolean,
  last_test_error text,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index inference_connections_provider_idx on inference_connections (provider_id);
create index inference_connections_refresh_idx on inference_connections (access_token_expires_at);

create table inference_oauth_sessions (
  id uuid primary key default gen_random_uuid(),
  provider_id text not null,
  status text not null check (status in ('pending', 'complete', 'error', 'expired', 'cancelled')),
  flow text not null check (flow in ('redirect', 'device')),
  completion_mode text not null,
  authorization_url text not null,
  connection_name text not null,
  state_sealed text,
  code_verifier_sealed text,
  device_code_sealed text,
  redirect_uri text,
  user_code text,
  poll_interval_seconds integer,
  last_polled_at timestamptz,
  connection_id uuid references inference_connections(id) on delete set null,
  error_code text,
  error_message text,
  expires_at timestamptz not null,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index inference_oauth_sessions_status_idx on inference_oauth_sessions (status, expires_at);
