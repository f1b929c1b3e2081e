-- Identity: single sign-on with OpenID Connect providers, TOTP second factor with recovery codes,
-- groups that require it, and a non-secret prefix on tokens so people can tell them apart.
alter table groups add column require_mfa boolean not null default false;
alter table auth_tokens add column prefix text;

create table identity_providers (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  issuer text not null,
  client_id text not null,
  client_secret_sealed text not null,
  scopes text[] not null default '{}'::text[],
  groups_claim text,
  group_map jsonb not null default '[]'::jsonb,
  auto_create_users boolean not null default false,
  default_group_id uuid references groups(id),
  allowed_email_domains text[] not null default '{}'::text[],
  enabled boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table oidc_sign_ins (
  id uuid primary key default gen_random_uuid(),
  provider_id uuid not null references identity_providers(id) on delete cascade,
  state_hash text not null unique,
  browser_hash text not null,
  nonce_sealed text not null,
  code_verifier_sealed text not null,
  next_path text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index oidc_sign_ins_expires_idx on oidc_sign_ins (expires_at);

create table user_totp (
  user_id uuid primary key references users(id) on delete cascade,
  secret_sealed text not null,
  enabled_at timestamptz,
  last_used_step bigint,
  created_at timestamptz not null default now()
);

create table user_recovery_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  code_hash text not null unique,
  used_at timestamptz,
  created_at timestamptz not null default now()
);
create index user_recovery_codes_user_idx on user_recovery_codes (user_id);

create table login_challenges (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  kind text not null check (kind in ('totp', 'enrol')),
  token_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index login_challenges_user_idx on login_challenges (user_id);
