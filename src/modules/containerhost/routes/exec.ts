import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { GatewayModule } from '../../../core/app.js';
import { validationError } from '../../../core/errors.js';
import { DataOf } from '../../../core/http-schemas.js';
import type { ContainerExecService, TerminalSession } from '../container-exec.js';
import { ExecRequest, ExecResult, TerminalQuery } from '../schemas/exec.js';
import { ContainerParams } from '../schemas/params.js';
import { manage, tags } from './declarations.js';

/** Terminal output waiting to reach a slow client before the engine's side is paused. */
const CLIENT_BUFFER_HIGH = 1024 * 1024;

const control = (ws: WebSocket, message: object) => {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
};

/** A text frame's resize message, or undefined when it is something else. */
function resizeOf(text: string): { cols: number; rows: number } | undefined {
  try {
    const message = JSON.parse(text) as { type?: unknown; cols?: unknown; rows?: unknown };
    const size = (value: unknown) =>
      Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 1000;
    if (message.type === 'resize' && size(message.cols) && size(message.rows))
      return { cols: message.cols as number, rows: message.rows as number };
  } catch {
    // Not JSON: answered below like any unknown control message.
  }
  return undefined;
}

/**
 * Joins a WebSocket and a terminal session: binary frames are keystrokes, the engine's output goes back as
 * binary frames, text frames carry JSON control messages (`{"type":"resize","cols","rows"}` in;
 * `{"type":"exit","exitCode"}` and `{"type":"error","message"}` out). Either side ending ends both. Each
 * side waits for the other to drain, so a slow client slows the terminal instead of filling memory.
 */
function bridge(ws: WebSocket, session: TerminalSession, log: FastifyBaseLogger): void {
  const { socket } = session;
  socket.on('data', (chunk: Buffer) => {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(chunk, { binary: true }, () => {
      if (socket.isPaused() && ws.bufferedAmount < CLIENT_BUFFER_HIGH / 2) socket.resume();
    });
    if (ws.bufferedAmount > CLIENT_BUFFER_HIGH) socket.pause();
  });
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) {
      if (!socket.write(data)) {
        ws.pause();
        socket.once('drain', () => ws.resume());
      }
      return;
    }
    const size = resizeOf(data.toString('utf8'));
    if (!size)
      return control(ws, { type: 'error', message: 'text frames carry {"type":"resize","cols":n,"rows":n}' });
    session
      .resize(size.cols, size.rows)
      .catch((error: unknown) => control(ws, { type: 'error', message: String((error as Error).message) }));
  });
  socket.once('close', () => {
    void session.close().then((exitCode) => {
      control(ws, { type: 'exit', exitCode });
      if (ws.readyState === ws.OPEN) ws.close(1000, 'the command ended');
    });
  });
  socket.on('error', (error) => log.warn({ err: error }, 'terminal engine connection failed'));
  ws.once('close', () => void session.close());
}

/** `/api/containerhost/nodes/:nodeId/containers/:containerId/{exec,terminal}`: commands in a container. */
export const execRoutes: GatewayModule<{ exec: ContainerExecService }> = async (app, { exec }) => {
  app.post(
    '/exec',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary:
          'Run a command in a running container to completion (time limit, output bounded to 1 MiB per stream)',
        params: ContainerParams,
        body: ExecRequest,
        response: { 200: DataOf(ExecResult) },
      },
    },
    async (request) => ({
      data: await exec.run(request.actor, request.params.nodeId, request.params.containerId, request.body),
    }),
  );

  // The session opens before the upgrade, so a refusal (404, 409, engine errors) is a plain HTTP answer.
  const sessions = new WeakMap<FastifyRequest, TerminalSession>();
  app.get(
    '/terminal',
    {
      websocket: true,
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Open an interactive terminal in a running container (WebSocket)',
        description:
          'Upgrade with `Upgrade: websocket` (a plain GET is 400). Binary frames carry keystrokes in and the ' +
          'output back; text frames carry JSON: `{"type":"resize","cols","rows"}` in, `{"type":"exit","exitCode"}` ' +
          'and `{"type":"error","message"}` out. A refusal (the container not running, an unreachable engine) ' +
          'is a plain HTTP answer before the upgrade. With the session cookie, open it from the gateway’s own origin.',
        params: ContainerParams,
        querystring: TerminalQuery,
      },
      preHandler: async (request) => {
        if (!request.ws)
          throw validationError([
            { path: [], message: 'open the terminal as a WebSocket (Upgrade: websocket)' },
          ]);
        const { nodeId, containerId } = request.params;
        const session = await exec.openTerminal(request.actor, nodeId, containerId, request.query);
        sessions.set(request, session);
        // However the connection ends (even if the upgrade itself fails), the session ends with it.
        request.raw.socket.once('close', () => void session.close());
      },
    },
    (ws, request) => bridge(ws, sessions.get(request)!, request.log),
  );
};
