-- Nodes (storage roots on the gateway's host) and resumable chunked upload sessions into them.
create table nodes (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  root_path text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table node_uploads (
  id uuid primary key default gen_random_uuid(),
  node_id uuid not null references nodes(id) on delete cascade,
  path text not null,
  total_bytes bigint not null check (total_bytes >= 0),
  received_bytes bigint not null default 0 check (received_bytes >= 0 and received_bytes <= total_bytes),
  chunk_size integer not null,
  sha256 text,
  overwrite boolean not null default false,
  status text not null default 'open' check (status in ('open', 'complete', 'failed', 'aborted', 'expired')),
  failure_reason text,
  lease_token uuid,
  lease_expires_at timestamptz,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  expires_at timestamptz not null,
  completed_at timestamptz
);
create index node_uploads_node_status_idx on node_uploads (node_id, status);
create index node_uploads_status_expires_idx on node_uploads (status, expires_at);
create unique index node_uploads_open_path_idx on node_uploads (node_id, path) where status = 'open';
