-- The inference data plane: consumer keys (hashed) and model routes with their ordered targets.
create table inference_keys (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  key_hash text not null unique,
  key_prefix text not null,
  models text[],
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table inference_routes (
  id uuid primary key default gen_random_uuid(),
  model text not null unique,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table inference_route_targets (
  id uuid primary key default gen_random_uuid(),
  route_id uuid not null references inference_routes(id) on delete cascade,
  position integer not null,
  connection_id uuid not null references inference_connections(id) on delete cascade,
  upstream_model text not null,
  priority integer not null default 0,
  weight integer not null default 1,
  constraint inference_route_targets_position_key unique (route_id, position)
);
create index inference_route_targets_connection_idx on inference_route_targets (connection_id);
