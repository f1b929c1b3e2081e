-- Leases that let several gateway processes on one database run each background job once.
create table job_leases (
  name text primary key,
  holder text not null,
  expires_at timestamptz not null
);

-- Login throttling counts recent failed logins per email and per client address.
create index audit_events_action_time_idx on audit_events (action, occurred_at);
