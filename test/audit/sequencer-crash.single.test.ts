import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServeProcess, startServeProcess } from '../support/cli.js';
import { eventually } from '../support/eventually.js';

describe('a gateway on the embedded database killed with SIGKILL while audited writes go on', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-seq-crash-'));
  const env = { INFRAGATE_DATA_DIR: dataDir, DATABASE_URL: '' };
  let gateway: ServeProcess | undefined;
  afterAll(async () => {
    await gateway?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the event of every acknowledged change, and sequences all of them into one valid chain after the restart', {
    timeout: 120_000,
  }, async () => {
    gateway = await startServeProcess(env);
    const token = gateway.firstToken!;
    const { id: adminId } = (await gateway.call('GET', '/auth/me', token)).body.data;
    const acknowledged: string[] = [];
    let killed = false;
    // Half the writers change in a transaction (a new group), half in one statement (a rename).
    const write = (worker: number, name: string) =>
      worker % 2 === 0
        ? gateway!.call('POST', '/api/admin/groups', token, { name, scopes: [] })
        : gateway!.call('PATCH', `/api/admin/users/${adminId}/name`, token, { name });
    const writer = async (worker: number) => {
      for (let i = 0; !killed; i++) {
        const name = `crash-${worker}-${i}`;
        const result = await write(worker, name).catch(() => undefined);
        if (result && result.status < 300) acknowledged.push(name);
      }
    };
    const writers = Array.from({ length: 6 }, (_, worker) => writer(worker));
    await eventually(() => acknowledged.length >= 40, '40 acknowledged writes');
    await gateway.stop('SIGKILL');
    killed = true;
    await Promise.all(writers);

    gateway = await startServeProcess(env);
    const report = await eventually(async () => {
      const verified = (await gateway!.call('GET', '/api/audit/verify', token)).body.data;
      return verified.unsequencedEvents === 0 && verified;
    }, 'every event sequenced after the restart');
    expect(report).toMatchObject({ valid: true, firstBrokenLink: null });
    const recorded = new Set<string>();
    for (const action of ['users.group.created', 'users.user.renamed']) {
      for (let page = 1; ; page++) {
        const listed = await gateway.call(
          'GET',
          `/api/audit/events?action=${action}&limit=100&page=${page}`,
          token,
        );
        for (const event of listed.body.data) recorded.add(event.metadata.name);
        if (page >= listed.body.pagination.totalPages) break;
      }
    }
    expect(acknowledged.filter((name) => !recorded.has(name))).toEqual([]);
    expect(report.checkedEvents).toBeGreaterThanOrEqual(acknowledged.length);
  });
});
