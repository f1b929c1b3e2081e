import { unprocessable } from '../../core/errors.js';
import type { EnginePort } from './engine-port.js';
import type { OutputStream } from './schemas/container-streams.js';
import { FrameDecoder } from './stream-frames.js';

/** A command to run in a container: an argument array (no shell), with optional environment and place. */
export interface ExecSpec {
  cmd: string[];
  env?: Record<string, string> | undefined;
  workingDir?: string | undefined;
  user?: string | undefined;
}

/** How long a command may run and how much of each output stream is kept. */
export interface ExecLimits {
  timeoutMs: number;
  outputLimitBytes: number;
}

export interface ExecOutcome {
  /** null when the time limit ended the wait before the command exited. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Some output was past `outputLimitBytes` and was dropped. */
  truncated: boolean;
  timedOut: boolean;
  durationMs: number;
}

/** `KEY=value` pairs as the engine takes an environment. */
export const envList = (env: Record<string, string> | undefined) =>
  env ? Object.entries(env).map(([key, value]) => `${key}=${value}`) : undefined;

/**
 * Runs a command in a running container to completion and collects its output. Output past the limit is
 * read and dropped (a blocked writer would never finish); at the time limit the gateway stops waiting
 * and closes its connection — the engine API has no way to kill an exec, so a command that ignores the
 * closed pipe may go on running in the container.
 */
export async function runExec(
  engine: EnginePort,
  what: Record<string, unknown>,
  containerId: string,
  spec: ExecSpec,
  limits: ExecLimits,
): Promise<ExecOutcome> {
  const started = performance.now();
  const execId = await engine.createExec(containerId, {
    cmd: spec.cmd,
    env: envList(spec.env),
    workingDir: spec.workingDir,
    user: spec.user,
    tty: false,
  });
  const stream = await engine.startExec(execId, { tty: false });
  const kept: Record<OutputStream, Buffer[]> = { stdout: [], stderr: [] };
  const size: Record<OutputStream, number> = { stdout: 0, stderr: 0 };
  let truncated = false;
  const decoder = new FrameDecoder();
  stream.on('data', (chunk: Buffer) => {
    for (const { stream: name, payload } of decoder.push(chunk)) {
      const room = limits.outputLimitBytes - size[name];
      if (payload.length > room) truncated = true;
      if (room > 0) {
        kept[name].push(payload.subarray(0, room));
        size[name] += Math.min(room, payload.length);
      }
    }
  });
  const timedOut = await new Promise<boolean>((resolve, reject) => {
    const timer = setTimeout(() => {
      stream.destroy();
      resolve(true);
    }, limits.timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      resolve(false);
    };
    stream.once('end', finish);
    stream.once('close', finish);
    stream.once('error', (error) => {
      clearTimeout(timer);
      reject(engine.failure(error, what));
    });
  });
  const exitCode = timedOut ? null : (await engine.inspectExec(execId)).exitCode;
  return {
    exitCode,
    stdout: Buffer.concat(kept.stdout).toString('utf8'),
    stderr: Buffer.concat(kept.stderr).toString('utf8'),
    truncated,
    timedOut,
    durationMs: Math.round(performance.now() - started),
  };
}

/** How much of a tool's output an error message carries. */
const TOOL_OUTPUT_LIMIT_BYTES = 64 * 1024;

/**
 * Runs a short tool (mv, rm) in a running container within the engine deadline; answers its exit code
 * and what it printed (stderr first), for the caller's error message.
 */
export async function runTool(
  engine: EnginePort,
  what: Record<string, unknown>,
  containerId: string,
  cmd: string[],
): Promise<{ exitCode: number; message: string }> {
  const result = await runExec(
    engine,
    what,
    containerId,
    { cmd },
    {
      timeoutMs: engine.timeoutMs,
      outputLimitBytes: TOOL_OUTPUT_LIMIT_BYTES,
    },
  );
  if (result.timedOut || result.exitCode === null)
    throw unprocessable('ENGINE_TIMEOUT', `${cmd[0]} did not finish within ${engine.timeoutMs} ms`);
  return {
    exitCode: result.exitCode,
    message: result.stderr.trim() || result.stdout.trim() || `${cmd[0]} exited with ${result.exitCode}`,
  };
}
