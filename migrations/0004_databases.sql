-- Databases: registered key-value databases (password sealed) and each caller's console history.
create table databases (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  type text not null check (type in ('keyvalue')),
  url text not null,
  username text,
  password_sealed text,
  tls jsonb,
  db_index integer not null default 0,
  allow_dangerous boolean not null default false,
  created_by uuid references users(id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table database_command_history (
  id uuid primary key default gen_random_uuid(),
  seq bigserial not null,
  database_id uuid not null references databases(id) on delete cascade,
  user_id uuid not null references users(id) on delete cascade,
  command text not null,
  command_name text not null,
  status text not null check (status in ('ok', 'error', 'refused')),
  error text,
  duration_ms real,
  created_at timestamptz(3) not null default now()
);
create index database_command_history_owner_idx on database_command_history (database_id, user_id, seq);
