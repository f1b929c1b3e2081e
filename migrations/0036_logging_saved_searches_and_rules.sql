-- Saved searches of a logging environment (issue 41); alert rules on logs may count one.
create table logging_saved_searches (
  id uuid primary key default gen_random_uuid(),
  environment_id uuid not null references logging_environments(id) on delete cascade,
  name text not null,
  query jsonb not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint logging_saved_searches_name_key unique (environment_id, name)
);
