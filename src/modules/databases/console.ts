import type { Actor } from '../../core/actor.js';
import { hasScope } from '../../core/auth/scopes.js';
import type { Deps } from '../../core/deps.js';
import { AppError, forbidden, invalidField, unprocessable } from '../../core/errors.js';
import { parseCommandLine, renderArgument } from './command-line.js';
import type { CommandLog, CommandRecord } from './command-log.js';
import {
  type CommandClass,
  type CommandSpec,
  classifyCommand,
  declaredKeyCount,
  displayName,
  maskCredentials,
  resolveSpec,
} from './command-policy.js';
import { connectionFailure, type KeyValueConnections } from './connections.js';
import { convertReply } from './reply.js';
import { type CommandResult, HISTORY_SIZE, type HistoryEntry } from './schemas.js';

const MAX_HISTORY_TEXT = 1000;

export type KeyValueConsoleDeps = Pick<Deps, 'config'> & {
  connections: KeyValueConnections;
  commandLog: CommandLog;
};

/** The command console over the registered databases, with each caller's command history. */
export class KeyValueConsole {
  constructor(private readonly deps: KeyValueConsoleDeps) {}

  /** The caller's last commands on a database, newest first. */
  async history(actor: Actor, id: string, limit = HISTORY_SIZE): Promise<HistoryEntry[]> {
    await this.deps.connections.row(id);
    return this.deps.commandLog.history(id, actor.userId, Math.min(limit, HISTORY_SIZE));
  }

  /**
   * Runs one console command. The caller's scope must cover the command's class as the server
   * itself describes it (COMMAND INFO); admin commands also need the database's allowDangerous.
   * Every attempt that names a database is audited and kept in the caller's history (see `log`).
   */
  async runCommand(actor: Actor, id: string, line: string): Promise<CommandResult> {
    const parsed = parseCommandLine(line);
    if (!parsed.ok) throw invalidField(['command'], parsed.error);
    if (parsed.args.length === 0) throw invalidField(['command'], 'must contain a command');
    const args = parsed.args;
    const words = args.map((arg) => arg.toString('latin1'));
    const row = await this.deps.connections.cachedRow(id);

    let text = maskCredentials(args.map((arg) => renderArgument(arg))).join(' ');
    if (text.length > MAX_HISTORY_TEXT) text = `${text.slice(0, MAX_HISTORY_TEXT)}…`;
    const record: CommandRecord = {
      actor,
      databaseId: id,
      command: text,
      commandName: words[0]!.toUpperCase().slice(0, 64),
      commandClass: null,
      keyCount: null,
      argCount: args.length - 1,
      status: 'refused',
      reason: null,
      error: null,
      durationMs: null,
    };

    try {
      const pool = await this.deps.connections.pool(row);
      const known = await pool.commandSpec(words[0]!);
      let spec: CommandSpec | null = null;
      let commandClass: CommandClass = 'read';
      if (known) {
        spec = resolveSpec(known, words);
        record.commandName = displayName(spec);
        const verdict = classifyCommand(spec, words);
        if (!verdict.allowed) throw unprocessable(verdict.reason, verdict.explanation);
        commandClass = record.commandClass = verdict.commandClass;
        if (!hasScope(actor.scopes, verdict.scope, id)) {
          throw forbidden({
            reason: 'COMMAND_SCOPE_REQUIRED',
            explanation: `${record.commandName} is a ${commandClass} command and needs the scope ${verdict.scope} (or ${verdict.scope}:${id} for this database)`,
            requiredScope: verdict.scope,
            commandClass,
          });
        }
        if (commandClass === 'admin' && !row.allowDangerous) {
          throw unprocessable(
            'DANGEROUS_COMMANDS_DISABLED',
            `${record.commandName} is an admin/dangerous command and this database does not allow them; a databases:manage holder can set allowDangerous on it`,
          );
        }
      }
      // A command the server does not know is still sent: the server's dispatcher uses the same
      // command table as COMMAND INFO, so it can only answer with its own error.
      const keyCountPromise = spec
        ? Promise.resolve(declaredKeyCount(spec, args.length) ?? pool.keyCount(args))
        : Promise.resolve(undefined);
      const started = performance.now();
      let reply: unknown;
      try {
        reply = await pool.run(args);
      } finally {
        record.durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      }
      if (!spec) {
        // Known to the server after all (e.g. a module loaded since): refuse to guess its class.
        throw unprocessable('UNCLASSIFIED_COMMAND', 'the server did not describe this command; try again');
      }
      record.keyCount = (await keyCountPromise) ?? null;
      const converted = convertReply(reply, this.deps.config.keyvalue.maxReplyBytes);
      record.status = 'ok';
      await this.log(record);
      return {
        command: record.commandName,
        class: commandClass,
        result: converted.result,
        type: converted.type,
        durationMs: record.durationMs,
        truncated: converted.truncated,
      };
    } catch (error) {
      const failure = this.commandFailure(error, record);
      await this.log(record);
      throw failure;
    }
  }

  /**
   * Read-class commands that ran are audited write-behind (committed within a fraction of a second,
   * see docs/SECURITY.md); writes, admin commands, refusals and unclassified commands are committed
   * before the answer.
   */
  private log(record: CommandRecord): Promise<void> {
    return record.commandClass === 'read' && record.status !== 'refused'
      ? this.deps.commandLog.appendLater(record)
      : this.deps.commandLog.append(record);
  }

  /** Maps what went wrong to the contract's errors and notes it in the record. */
  private commandFailure(error: unknown, record: CommandRecord): unknown {
    if (error instanceof AppError) {
      const details = error.details as { reason?: string } | undefined;
      record.status = 'refused';
      record.reason = details?.reason ?? error.code;
      return error;
    }
    const failure = connectionFailure(error);
    if (!failure) {
      record.status = 'error';
      record.reason = 'INTERNAL';
      return error;
    }
    record.status = 'error';
    record.reason = failure.reason;
    record.error = failure.serverError ?? failure.explanation;
    if (failure.reason === 'COMMAND_ERROR' && /unknown command/i.test(failure.serverError ?? '')) {
      return unprocessable('UNKNOWN_COMMAND', `the server does not know ${record.commandName}`, {
        serverError: failure.serverError,
      });
    }
    return unprocessable(failure.reason, failure.explanation, {
      ...(failure.serverError ? { serverError: failure.serverError } : {}),
    });
  }
}
