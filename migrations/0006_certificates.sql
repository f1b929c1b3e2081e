-- SSL certificates: PEM certificate and chain, the private key sealed with the master key, parsed metadata.
create table ssl_certificates (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  certificate_pem text not null,
  chain_pem text not null default '',
  private_key_sealed text not null,
  subject text not null,
  issuer text not null,
  serial_number text not null,
  sans text[] not null,
  not_before timestamptz not null,
  not_after timestamptz not null,
  fingerprint_sha256 text not null,
  key_type text not null,
  key_bits integer,
  curve text,
  chain_length integer not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index ssl_certificates_not_after_idx on ssl_certificates (not_after);
