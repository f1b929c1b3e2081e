import type { Actor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { unprocessable } from '../../core/errors.js';
import type { KeyValueConnections } from './connections.js';
import { replyBytes, toBytesJson } from './key-bytes.js';
import { openKeyValue } from './keyvalue-access.js';
import type { SlowlogEntry } from './keyvalue-schemas.js';
import { parseClientList, parseInfo } from './panes-parse.js';

export type ServerPanesDeps = Pick<Deps, 'db' | 'audit'> & { connections: KeyValueConnections };

/** The server panes of a key-value database: INFO, the slow log, the connected clients. */
export class ServerPanes {
  constructor(private readonly deps: ServerPanesDeps) {}

  async info(id: string) {
    const kv = await openKeyValue(this.deps.connections, id);
    return { sections: parseInfo(String(await kv.run('INFO', 'everything'))) };
  }

  async slowlog(id: string, count: number): Promise<SlowlogEntry[]> {
    const kv = await openKeyValue(this.deps.connections, id);
    const entries = (await kv.run('SLOWLOG', 'GET', count)) as unknown[][];
    return entries.map(([entryId, at, micros, args, client, name]) => ({
      id: Number(entryId),
      at: new Date(Number(at) * 1000),
      durationMicros: Number(micros),
      command: (args as unknown[]).map((arg) => toBytesJson(replyBytes(arg))),
      client: String(client ?? ''),
      clientName: String(name ?? ''),
    }));
  }

  /** Empties the slow log: an admin command, so the database must allow them (as in the console). */
  async resetSlowlog(actor: Actor, id: string): Promise<void> {
    const kv = await openKeyValue(this.deps.connections, id);
    if (!kv.row.allowDangerous) {
      throw unprocessable(
        'DANGEROUS_COMMANDS_DISABLED',
        'SLOWLOG RESET is an admin command and this database does not allow them; a databases:manage holder can set allowDangerous on it',
      );
    }
    await kv.run('SLOWLOG', 'RESET');
    await this.deps.audit.recordAlone(this.deps.db, actor, {
      action: 'databases.keyvalue.slowlog_reset',
      targetType: 'database',
      targetId: id,
    });
  }

  async clients(id: string) {
    const kv = await openKeyValue(this.deps.connections, id);
    return parseClientList(String(await kv.run('CLIENT', 'LIST')));
  }
}
