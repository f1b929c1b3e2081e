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

-- Alert rules on logs (`logging.query.threshold`): what the rule counts, null for other events.
alter table notification_rules add column log_query jsonb;

-- The new event kind in the three tables that name one.
alter table notification_rules drop constraint notification_rules_event_check;
alter table notification_rules add constraint notification_rules_event_check check (event in ('containerhost.health_check.changed', 'certificates.expiring', 'certificates.expired', 'siem.destination.circuit_opened', 'siem.delivery.failed', 'repohost.token.expiring', 'auth.login.throttled', 'audit.chain.broken', 'nodes.node.offline', 'logging.query.threshold'));
alter table notification_conditions drop constraint notification_conditions_kind_check;
alter table notification_conditions add constraint notification_conditions_kind_check check (kind in ('containerhost.health_check.changed', 'certificates.expiring', 'certificates.expired', 'siem.destination.circuit_opened', 'siem.delivery.failed', 'repohost.token.expiring', 'auth.login.throttled', 'audit.chain.broken', 'nodes.node.offline', 'logging.query.threshold'));
alter table notification_deliveries drop constraint notification_deliveries_event_check;
alter table notification_deliveries add constraint notification_deliveries_event_check check (event in ('containerhost.health_check.changed', 'certificates.expiring', 'certificates.expired', 'siem.destination.circuit_opened', 'siem.delivery.failed', 'repohost.token.expiring', 'auth.login.throttled', 'audit.chain.broken', 'nodes.node.offline', 'logging.query.threshold'));
