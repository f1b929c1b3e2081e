-- Pages: static site projects, their deployments and the files of each deployment (contents are
-- stored once per SHA-256 under <dataDir>/pages/blobs/).
create table pages_projects (
  id uuid primary key default gen_random_uuid(),
  name text not null,
  slug text not null unique,
  spa_fallback boolean not null default false,
  production_deployment_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table pages_deployments (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references pages_projects(id) on delete cascade,
  status text not null default 'ready' check (status in ('ready')),
  file_count integer not null,
  size_bytes bigint not null,
  archive_format text not null check (archive_format in ('tar.gz', 'tar', 'zip')),
  archive_bytes bigint not null,
  archive_sha256 text not null,
  pinned boolean not null default false,
  created_by uuid references users(id) on delete set null,
  created_by_email text,
  created_at timestamptz not null default now()
);
create index pages_deployments_project_created_idx on pages_deployments (project_id, created_at);

alter table pages_projects add constraint pages_projects_production_deployment_id_fkey
  foreign key (production_deployment_id) references pages_deployments(id) on delete set null;

create table pages_deployment_files (
  deployment_id uuid not null references pages_deployments(id) on delete cascade,
  path text not null,
  sha256 text not null,
  size_bytes bigint not null,
  content_type text not null,
  primary key (deployment_id, path)
);
create index pages_deployment_files_sha256_idx on pages_deployment_files (sha256);
