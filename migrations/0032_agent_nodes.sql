-- Agent nodes: a host whose agent dials out to the gateway. A node is a directory on the gateway's host
-- (kind 'directory', as before: its root is required) or an agent's host (kind 'agent': its root is the
-- agent's --root, reported by the agent, so the gateway stores none).
alter table nodes add column kind text not null default 'directory' check (kind in ('directory', 'agent'));
alter table nodes alter column root_path drop not null;
alter table nodes add constraint nodes_root_path_by_kind_check
  check ((kind = 'directory') = (root_path is not null));

-- The agent of an agent node: its one-time enrolment token and its long-lived credential, both kept
-- as SHA-256 hashes only; what it last reported about its host; which connection is its tunnel now.
create table node_agents (
  node_id uuid primary key references nodes(id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'online', 'offline', 'revoked')),
  enrollment_token_hash text unique,
  enrollment_expires_at timestamptz,
  credential_hash text unique,
  enrolled_at timestamptz,
  revoked_at timestamptz,
  connection_id uuid,
  last_seen_at timestamptz,
  agent_version text,
  root text,
  facts jsonb,
  capabilities jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index node_agents_online_seen_idx on node_agents (last_seen_at) where status = 'online';

-- The agent's tunnel going down and coming back is a condition event (recovery: online).
alter table notification_rules drop constraint notification_rules_event_check;
alter table notification_rules add constraint notification_rules_event_check
  check (event in ('containerhost.health_check.changed', 'certificates.expiring', 'certificates.expired', 'siem.destination.circuit_opened', 'siem.delivery.failed', 'repohost.token.expiring', 'auth.login.throttled', 'audit.chain.broken', 'nodes.node.offline'));
alter table notification_conditions drop constraint notification_conditions_kind_check;
alter table notification_conditions add constraint notification_conditions_kind_check
  check (kind in ('containerhost.health_check.changed', 'certificates.expiring', 'certificates.expired', 'siem.destination.circuit_opened', 'siem.delivery.failed', 'repohost.token.expiring', 'auth.login.throttled', 'audit.chain.broken', 'nodes.node.offline'));
alter table notification_deliveries drop constraint notification_deliveries_event_check;
alter table notification_deliveries add constraint notification_deliveries_event_check
  check (event in ('containerhost.health_check.changed', 'certificates.expiring', 'certificates.expired', 'siem.destination.circuit_opened', 'siem.delivery.failed', 'repohost.token.expiring', 'auth.login.throttled', 'audit.chain.broken', 'nodes.node.offline'));
