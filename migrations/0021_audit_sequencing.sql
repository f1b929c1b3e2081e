-- Audit sequencing off the request path: a change inserts its event without seq or hashes (no lock,
-- in its own transaction); the sequencer job gives committed events consecutive seq numbers and
-- chain hashes in batches. `entry` orders events as they were recorded and keys the table; seq,
-- prev_hash and hash stay null until the event is sequenced, then are set together.
alter table audit_events drop constraint audit_events_pkey;
alter table audit_events add column entry bigserial primary key;
alter table audit_events alter column seq drop not null;
alter table audit_events alter column prev_hash drop not null;
alter table audit_events alter column hash drop not null;
alter table audit_events add constraint audit_events_seq_unique unique (seq);
alter table audit_events add constraint audit_events_sequenced_check check (
  (seq is null and prev_hash is null and hash is null)
  or (seq is not null and prev_hash is not null and hash is not null)
);
create index audit_events_unsequenced_idx on audit_events (entry) where seq is null;
