-- Repository host (GitLab API v4) connectors: base URL, sealed token, allowlist and the last test's findings.
create table repohost_connectors (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  base_url text not null,
  token_sealed text not null,
  allowlist jsonb not null,
  capabilities jsonb not null,
  token_scopes jsonb,
  token_expires_at text,
  remote_user jsonb,
  last_tested_at timestamptz not null,
  last_test_ok boolean not null,
  last_test_error jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
