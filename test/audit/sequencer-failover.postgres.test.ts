import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { advisoryLocks } from '../../src/db/locks.js';
import { createDatabase } from '../services/postgres.js';
import { type ServeProcess, startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';

const running: ServeProcess[] = [];
const clients: pg.Client[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
  for (const client of clients.splice(0)) await client.end();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Two `infragate serve` processes on one new PostgreSQL database; the first holds the sequencer's lease. */
async function twoGateways() {
  const url = await createDatabase(inject('postgresUrl'));
  const env = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-seq-'));
    dirs.push(dir);
    return { DATABASE_URL: url, INFRAGATE_DATA_DIR: dir, INFRAGATE_MASTER_KEY: masterKey };
  };
  const masterKey = crypto.randomBytes(32).toString('hex');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  clients.push(client);
  const first = await startServeProcess(env());
  running.push(first);
  const holder = await eventually(async () => {
    const { rows } = await client.query(`select holder from job_leases where name = 'audit.sequencer'`);
    return rows[0]?.holder as string | undefined;
  }, 'the first gateway holding the sequencer lease');
  const second = await startServeProcess(env());
  running.push(second);
  return { first, second, token: first.firstToken!, client, holder };
}

async function createGroups(gateway: ServeProcess, token: string, prefix: string, count: number) {
  const names: string[] = [];
  const worker = async (offset: number) => {
    for (let i = offset; i < count; i += 8) {
      const name = `${prefix}-${i}`;
      const result = await gateway.call('POST', '/api/admin/groups', token, { name, scopes: [] });
      if (result.status !== 201) throw new Error(`group create answered ${result.status}`);
      names.push(name);
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, offset) => worker(offset)));
  return names;
}

/** Renames the token's own account `count` times from 4 callers (one statement each, with its event). */
async function renameSelf(gateway: ServeProcess, token: string, prefix: string, count: number) {
  const { id } = (await gateway.call('GET', '/auth/me', token)).body.data;
  const names: string[] = [];
  const worker = async (offset: number) => {
    for (let i = offset; i < count; i += 4) {
      const name = `${prefix}-${i}`;
      const result = await gateway.call('PATCH', `/api/admin/users/${id}/name`, token, { name });
      if (result.status !== 200) throw new Error(`rename answered ${result.status}`);
      names.push(name);
    }
  };
  await Promise.all(Array.from({ length: 4 }, (_, offset) => worker(offset)));
  return names;
}

async function chainOf(client: pg.Client) {
  const { rows } = await client.query(
    `select count(*)::int as events, count(seq)::int as sequenced, coalesce(max(seq), 0)::int as head,
            count(distinct seq)::int as distinct_seqs
     from audit_events`,
  );
  return rows[0] as { events: number; sequenced: number; head: number; distinct_seqs: number };
}

describe('audit sequencing across two gateway processes on one PostgreSQL', () => {
  it('gives the events of concurrent writers on both (transactions and one-statement changes) one gap-free chain that verifies', {
    timeout: 180_000,
  }, async () => {
    const { first, second, token, client } = await twoGateways();
    const [fromFirst, fromSecond, renamedOnFirst, renamedOnSecond] = await Promise.all([
      createGroups(first, token, 'first', 80),
      createGroups(second, token, 'second', 80),
      renameSelf(first, token, 'renamed-on-first', 40),
      renameSelf(second, token, 'renamed-on-second', 40),
    ]);
    const report = await eventually(async () => {
      const verified = (await second.call('GET', '/api/audit/verify', token)).body.data;
      return verified.unsequencedEvents === 0 && verified;
    }, 'every event sequenced');
    const chain = await chainOf(client);
    expect(report).toMatchObject({ valid: true, checkedEvents: chain.events, headSeq: chain.events });
    expect(chain).toMatchObject({ sequenced: chain.events, head: chain.events, distinct_seqs: chain.events });
    const { rows } = await client.query(
      `select metadata->>'name' as name from audit_events where action = 'users.group.created' and seq is not null`,
    );
    expect(rows.map((row) => row.name).sort()).toEqual([...fromFirst, ...fromSecond].sort());
    const renames = await client.query(
      `select metadata->>'name' as name from audit_events where action = 'users.user.renamed' and seq is not null`,
    );
    expect(renames.rows.map((row) => row.name).sort()).toEqual(
      [...renamedOnFirst, ...renamedOnSecond].sort(),
    );
  });

  it('sequences events committed but not sequenced when the sequencing process was killed, in the other one', {
    timeout: 180_000,
  }, async () => {
    const { first, second, token, client, holder } = await twoGateways();
    // Holding the chain's lock stops the sequencer mid-batch, as a slow or stuck one would be.
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [advisoryLocks.auditChain]);
    const names = [
      ...(await createGroups(second, token, 'pending-second', 5)),
      ...(await createGroups(first, token, 'pending-first', 5)),
    ];
    const pending = await client.query('select count(*)::int as n from audit_events where seq is null');
    expect(pending.rows[0].n).toBeGreaterThanOrEqual(names.length);

    await first.stop('SIGKILL');
    await client.query('rollback');

    await eventually(
      async () => {
        const chain = await chainOf(client);
        return chain.sequenced === chain.events;
      },
      'the backlog sequenced by the other process',
      30_000,
    );
    const report = (await second.call('GET', '/api/audit/verify', token)).body.data;
    const chain = await chainOf(client);
    expect(report).toMatchObject({ valid: true, checkedEvents: chain.events, unsequencedEvents: 0 });
    const { rows } = await client.query(`select holder from job_leases where name = 'audit.sequencer'`);
    expect(rows[0]?.holder).not.toBe(holder);
    const { rows: created } = await client.query(
      `select metadata->>'name' as name from audit_events where action = 'users.group.created' and seq is not null`,
    );
    expect(created.map((row) => row.name).sort()).toEqual(names.sort());
  });
});
