-- Logging: two folder trees (schema folders, environment folders), schemas and environments.
-- Sibling names are unique (a null parent is the root, so NULLS NOT DISTINCT); the parent index
-- serves both listing children in order and walking a folder's ancestors during a move.
create table logging_schema_folders (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  parent_id uuid references logging_schema_folders(id),
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint logging_schema_folders_sibling_name_key unique nulls not distinct (parent_id, name)
);
create index logging_schema_folders_parent_idx on logging_schema_folders (parent_id, sort_order);

create table logging_environment_folders (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  parent_id uuid references logging_environment_folders(id),
  sort_order integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint logging_environment_folders_sibling_name_key unique nulls not distinct (parent_id, name)
);
create index logging_environment_folders_parent_idx on logging_environment_folders (parent_id, sort_order);

create table logging_schemas (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  folder_id uuid references logging_schema_folders(id),
  description text not null default '',
  fields jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint logging_schemas_folder_name_key unique nulls not distinct (folder_id, name)
);
create index logging_schemas_folder_idx on logging_schemas (folder_id);

create table logging_environments (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  folder_id uuid references logging_environment_folders(id),
  description text not null default '',
  schema_id uuid references logging_schemas(id),
  retention_days integer not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint logging_environments_folder_name_key unique nulls not distinct (folder_id, name)
);
create index logging_environments_folder_idx on logging_environments (folder_id);
create index logging_environments_schema_idx on logging_environments (schema_id);
