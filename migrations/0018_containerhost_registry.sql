-- Container hosts: registry credentials stored per node (write-only; the password sealed with the master key).
create table containerhost_registry_credentials (
  id uuid primary key default gen_random_uuid(),
  node_id uuid not null references containerhost_nodes(id) on delete cascade,
  registry text not null,
  username text not null,
  password_sealed text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint containerhost_registry_credentials_node_registry_key unique (node_id, registry)
);
