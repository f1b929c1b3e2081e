-- ACME issuance and renewal (issue 23): certificates ordered from an ACME CA sit in ssl_certificates
-- beside uploaded ones; their material is empty until the first order is issued.
alter table ssl_certificates alter column certificate_pem drop not null;
alter table ssl_certificates alter column private_key_sealed drop not null;
alter table ssl_certificates alter column subject drop not null;
alter table ssl_certificates alter column issuer drop not null;
alter table ssl_certificates alter column serial_number drop not null;
alter table ssl_certificates alter column sans drop not null;
alter table ssl_certificates alter column not_before drop not null;
alter table ssl_certificates alter column not_after drop not null;
alter table ssl_certificates alter column fingerprint_sha256 drop not null;
alter table ssl_certificates alter column key_type drop not null;
alter table ssl_certificates alter column chain_length drop not null;
alter table ssl_certificates add column source text not null default 'uploaded' check (source in ('uploaded', 'acme'));
alter table ssl_certificates add column status text not null default 'valid' check (status in ('pending', 'valid', 'failed', 'renewing'));
alter table ssl_certificates add column last_error text;
alter table ssl_certificates add column next_renewal_at timestamptz;

create table acme_accounts (
  id uuid primary key default gen_random_uuid(),
  directory_url text not null,
  email text not null,
  account_key_sealed text not null,
  account_url text,
  created_at timestamptz not null default now(),
  constraint acme_accounts_directory_email_key unique (directory_url, email)
);

create table acme_dns_providers (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  kind text not null check (kind in ('rfc2136')),
  server text not null,
  port integer not null,
  zone text not null,
  tsig_key_name text not null,
  tsig_algorithm text not null check (tsig_algorithm in ('hmac-sha256', 'hmac-sha384', 'hmac-sha512')),
  tsig_secret_sealed text not null,
  ttl integer not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table acme_orders (
  certificate_id uuid primary key references ssl_certificates (id) on delete cascade,
  account_id uuid not null references acme_accounts (id) on delete restrict,
  domains text[] not null,
  challenge text not null check (challenge in ('http-01', 'dns-01')),
  dns_provider_id uuid references acme_dns_providers (id) on delete restrict,
  order_url text,
  private_key_sealed text,
  confirmed_at timestamptz,
  failures integer not null default 0,
  due_at timestamptz,
  claimed_until timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index acme_orders_due_at_idx on acme_orders (due_at);

create table acme_challenges (
  token text primary key,
  certificate_id uuid not null references ssl_certificates (id) on delete cascade,
  type text not null check (type in ('http-01', 'dns-01')),
  domain text not null,
  key_authorization text not null,
  record_name text,
  challenge_url text not null,
  created_at timestamptz not null default now()
);
create index acme_challenges_certificate_idx on acme_challenges (certificate_id);
