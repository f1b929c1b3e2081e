-- Container hosts: Docker Engine nodes, saved health checks and their results, resource folders and order.
create table containerhost_nodes (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  endpoint text not null,
  tls_ca_sealed text,
  tls_cert_sealed text,
  tls_key_sealed text,
  ssh_key_sealed text,
  helper_image text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table containerhost_health_checks (
  id uuid primary key default gen_random_uuid(),
  node_id uuid not null references containerhost_nodes(id) on delete cascade,
  container_name text not null,
  enabled boolean not null,
  scheme text not null check (scheme in ('http', 'https')),
  host_port integer,
  container_port integer,
  path text not null,
  status_min integer not null,
  status_max integer not null,
  expected_body text,
  body_match_mode text not null check (body_match_mode in ('includes', 'exact', 'starts_with', 'ends_with')),
  interval_seconds integer not null,
  timeout_seconds integer not null,
  slow_threshold integer not null,
  next_run_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint containerhost_health_checks_node_container_key unique (node_id, container_name)
);
create index containerhost_health_checks_due_idx on containerhost_health_checks (enabled, next_run_at);

create table containerhost_health_results (
  id uuid primary key default gen_random_uuid(),
  check_id uuid not null references containerhost_health_checks(id) on delete cascade,
  ok boolean not null,
  status text not null check (status in ('online', 'degraded', 'offline', 'disabled')),
  http_status integer,
  response_ms integer,
  slow boolean not null,
  body_matched boolean,
  url text,
  error text,
  checked_at timestamptz(3) not null
);
create index containerhost_health_results_check_idx on containerhost_health_results (check_id, checked_at);

create table containerhost_folders (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  resource_type text not null check (resource_type in ('container', 'image', 'network', 'volume', 'compose')),
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint containerhost_folders_type_name_key unique (resource_type, name)
);

create table containerhost_resource_placements (
  node_id uuid not null references containerhost_nodes(id) on delete cascade,
  resource_type text not null check (resource_type in ('container', 'image', 'network', 'volume', 'compose')),
  resource_key text not null,
  sort_order integer not null,
  folder_id uuid references containerhost_folders(id) on delete set null,
  updated_at timestamptz not null default now(),
  primary key (node_id, resource_type, resource_key)
);
create index containerhost_resource_placements_folder_idx on containerhost_resource_placements (folder_id);
