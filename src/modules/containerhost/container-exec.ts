import type { Duplex } from 'node:stream';
import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, type ValidationIssue, validationError } from '../../core/errors.js';
import { recordEngineChange } from './engine-audit.js';
import { runExec } from './engine-exec.js';
import type { EngineNodeService } from './engine-nodes.js';
import { stripSlash } from './engine-port.js';
import type { ExecRequest, ExecResult, TerminalQuery } from './schemas/exec.js';

/** Output kept per stream of a command run to completion. */
const EXEC_OUTPUT_LIMIT_BYTES = 1024 * 1024;
const DEFAULT_EXEC_SECONDS = 60;

/** An interactive terminal in a container: the engine's end of it, and how to steer and end it. */
export interface TerminalSession {
  /** Raw terminal bytes both ways: what is written is typed, what is read is the screen's output. */
  socket: Duplex;
  resize(cols: number, rows: number): Promise<void>;
  /** Ends the session and records it (once, however often it is called); answers the exit code. */
  close(): Promise<number | null>;
}

function checkEnvNames(env: Record<string, string> | undefined): void {
  const issues: ValidationIssue[] = Object.keys(env ?? {})
    .filter((name) => name === '' || name.length > 256 || name.includes('='))
    .map((name) => ({ path: ['env', name], message: 'a variable name is 1-256 characters without =' }));
  if (issues.length > 0) throw validationError(issues);
}

/**
 * Commands in a container: run to completion with a time limit and bounded output, or an interactive
 * terminal (a TTY exec). Each is an audit event with the command, exit code and duration — never the
 * output, the environment's values, or a terminal's keystrokes.
 */
export class ContainerExecService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit'> & { engineNodes: EngineNodeService }) {}

  async run(
    actor: AuditActor,
    nodeId: string,
    containerId: string,
    request: ExecRequest,
  ): Promise<ExecResult> {
    checkEnvNames(request.env);
    if (request.workingDir !== undefined && !request.workingDir.startsWith('/'))
      throw invalidField(['workingDir'], 'must be an absolute path');
    const { engine, id, name } = await this.container(nodeId, containerId);
    const result = await runExec(engine, { nodeId, containerId }, id, request, {
      timeoutMs: (request.timeoutSeconds ?? DEFAULT_EXEC_SECONDS) * 1000,
      outputLimitBytes: EXEC_OUTPUT_LIMIT_BYTES,
    });
    await recordEngineChange(this.deps, actor, 'container', 'executed', id, {
      nodeId,
      container: name,
      cmd: request.cmd,
      user: request.user ?? null,
      workingDir: request.workingDir ?? null,
      envNames: Object.keys(request.env ?? {}),
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      truncated: result.truncated,
      durationMs: result.durationMs,
    });
    return result;
  }

  /** Opens a TTY exec of `cmd` and attaches to it; the session is recorded when opened and when closed. */
  async openTerminal(
    actor: AuditActor,
    nodeId: string,
    containerId: string,
    query: TerminalQuery,
  ): Promise<TerminalSession> {
    const cmd = query.cmd ?? ['/bin/sh'];
    const { engine, id, name } = await this.container(nodeId, containerId);
    const execId = await engine.createExec(id, { cmd, env: ['TERM=xterm-256color'], tty: true });
    const socket = await engine.startExec(execId, { tty: true });
    const resize = (cols: number, rows: number) => engine.resizeExec(execId, cols, rows);
    if (query.cols && query.rows) await resize(query.cols, query.rows).catch(() => socket.destroy());
    const opened = performance.now();
    const audit = { nodeId, container: name, cmd, execId };
    await recordEngineChange(this.deps, actor, 'container', 'terminal_opened', id, audit);
    let closing: Promise<number | null> | undefined;
    const close = () => {
      closing ??= (async () => {
        socket.destroy();
        const exitCode = await engine
          .inspectExec(execId)
          .then((info) => (info.running ? null : info.exitCode))
          .catch(() => null);
        await recordEngineChange(this.deps, actor, 'container', 'terminal_closed', id, {
          ...audit,
          exitCode,
          durationMs: Math.round(performance.now() - opened),
        });
        return exitCode;
      })();
      return closing;
    };
    return { socket, resize, close };
  }

  private async container(nodeId: string, containerId: string) {
    const { engine } = await this.deps.engineNodes.engine(nodeId);
    const container = await engine.inspectContainer(containerId);
    return { engine, id: container.Id, name: stripSlash(container.Name) };
  }
}
