-- Pages on their own domains: custom domains verified by DNS TXT record or HTTP token, and deploy
-- tokens that may only upload deployments of one project (only their SHA-256 is kept).
create table pages_domains (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references pages_projects(id) on delete cascade,
  hostname text not null unique,
  status text not null default 'pending' check (status in ('pending', 'verified', 'failed')),
  verification_token text not null unique,
  last_error text,
  last_checked_at timestamptz,
  verified_at timestamptz,
  certificate_id uuid references ssl_certificates(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index pages_domains_project_idx on pages_domains (project_id);

create table pages_deploy_tokens (
  id uuid primary key default gen_random_uuid(),
  project_id uuid not null references pages_projects(id) on delete cascade,
  name text not null,
  token_hash text not null unique,
  created_by uuid not null references users(id) on delete cascade,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  expires_at timestamptz,
  revoked_at timestamptz
);
create index pages_deploy_tokens_project_idx on pages_deploy_tokens (project_id);

alter table pages_deployments add column deploy_token_id uuid
  references pages_deploy_tokens(id) on delete set null;
