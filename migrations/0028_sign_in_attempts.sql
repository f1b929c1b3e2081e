-- Sign-in steps being checked now, counted by the login throttle with the failures of the audit
-- trail: attempts sent together each reserve a place before their secret is checked.
create table sign_in_attempts (
  id uuid primary key default gen_random_uuid(),
  email text,
  client_ip text not null,
  started_at timestamptz not null default now()
);
create index sign_in_attempts_started_idx on sign_in_attempts (started_at);
