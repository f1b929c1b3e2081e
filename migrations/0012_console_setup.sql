-- First-start setup links of the web console: a one-time code (only its SHA-256 hash is kept) with
-- which the first admin sets a password in the browser. Used or expired codes stay as a record.
create table console_setup_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  code_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
