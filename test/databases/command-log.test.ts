import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/core/actor.js';
import { AuditRecorder } from '../../src/core/audit-recorder.js';
import type { Database } from '../../src/db/client.js';
import { auditEvents } from '../../src/db/schema/index.js';
import { CommandLog, type CommandRecord } from '../../src/modules/databases/command-log.js';
import { otherWorkRunsDuring } from '../support/event-loop-turns.js';
import { openTestDatabase } from '../support/gateway.js';

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const actor: Actor = {
  userId: crypto.randomUUID(),
  email: 'operator@test',
  name: 'Operator',
  groupName: 'operators',
  scopes: ['*'],
  tokenId: crypto.randomUUID(),
  tokenKind: 'api',
  tokenExpiresAt: null,
  requestId: 'request-1',
  clientIp: '127.0.0.1',
};

const readCommand = (databaseId: string): CommandRecord => ({
  actor,
  databaseId,
  command: 'GET k',
  commandName: 'GET',
  commandClass: 'read',
  keyCount: 1,
  argCount: 1,
  status: 'ok',
  reason: null,
  error: null,
  durationMs: 0.1,
});

describe('the console command log', () => {
  it('lets other work run between the batches of a long backlog', async () => {
    const log = new CommandLog({
      db: database.db,
      audit: new AuditRecorder(),
      log: { error: () => {} } as never,
    });
    const databaseId = crypto.randomUUID();
    for (let n = 0; n < 1_500; n++) await log.appendLater(readCommand(databaseId));
    // On PGlite the database works in this thread: without a turn of the event loop between
    // batches, the whole backlog was written before anything else (a request) could run.
    expect(await otherWorkRunsDuring(() => log.flush())).toBe(true);
    const events = await database.db
      .select({ entry: auditEvents.entry })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'databases.keyvalue.command_run'), eq(auditEvents.targetId, databaseId)),
      );
    expect(events).toHaveLength(1_500);
  });
});
