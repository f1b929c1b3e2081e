import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { WebSocket } from 'ws';
import type { Deps } from '../../../core/deps.js';
import { describeError } from '../../../core/error-text.js';
import type { AgentIdentity } from './agent-enrollment.js';
import type { AgentPresence } from './agent-presence.js';
import { FrameError, Hello, parseFrame, TUNNEL_CLOSE, type Welcome } from './tunnel-frames.js';

/** Gateways tell each other on this channel that a node was revoked, so the one holding its tunnel closes it. */
const REVOKED_CHANNEL = 'infragate_agent_revoked';

/** How long a new tunnel may take to say hello. */
const HELLO_TIMEOUT_MS = 10_000;

/** Heartbeats a tunnel may leave unanswered before it counts as gone. */
const MISSED_HEARTBEATS = 3;

interface Tunnel {
  agent: AgentIdentity;
  connectionId: string;
  socket: WebSocket;
}

/**
 * The agent tunnels this gateway process holds, one per node: it admits each (hello, then online),
 * keeps it alive (a WebSocket ping per heartbeat; a tunnel silent for three is terminated), and ends
 * it when its node is revoked here or on another gateway, or when this gateway closes.
 */
export class TunnelHub {
  private readonly tunnels = new Map<string, Tunnel>();
  private readonly deps: Pick<Deps, 'db' | 'dbKind' | 'subscribe' | 'log' | 'config'>;
  private readonly presence: AgentPresence;

  constructor(
    deps: Pick<Deps, 'db' | 'dbKind' | 'subscribe' | 'log' | 'config'> & { presence: AgentPresence },
  ) {
    this.deps = deps;
    this.presence = deps.presence;
  }

  /** Starts hearing revocations made on other gateways (PostgreSQL only); answers how to stop. */
  async listen(): Promise<() => Promise<void>> {
    if (this.deps.dbKind !== 'postgres') return async () => {};
    return this.deps.subscribe(REVOKED_CHANNEL, (nodeId) =>
      this.end(nodeId, TUNNEL_CLOSE.revoked, 'revoked'),
    );
  }

  /** Takes over a tunnel the agent just opened: it becomes the node's tunnel once it said hello. */
  admit(agent: AgentIdentity, socket: WebSocket): void {
    const connectionId = crypto.randomUUID();
    const log = this.deps.log.child({ nodeId: agent.nodeId, connectionId });
    const helloTimer = setTimeout(() => socket.close(TUNNEL_CLOSE.noHello, 'no hello'), HELLO_TIMEOUT_MS);
    let tunnel: Tunnel | undefined;
    let heartbeat: NodeJS.Timeout | undefined;

    socket.on('message', (data, isBinary) => {
      try {
        if (tunnel || isBinary) throw new FrameError('only hello is expected here');
        const hello = parseFrame(data.toString(), { hello: Hello });
        clearTimeout(helloTimer);
        tunnel = { agent, connectionId, socket };
        void this.welcome(tunnel, hello).then(
          (started) => {
            if (started) heartbeat = this.keepAlive(tunnel!);
          },
          (error: unknown) => {
            log.warn({ err: error }, 'agent tunnel could not start');
            socket.close(1011, 'gateway error');
          },
        );
      } catch (error) {
        socket.close(1008, error instanceof FrameError ? error.message : 'protocol violation');
      }
    });
    socket.on('close', () => {
      clearTimeout(helloTimer);
      clearInterval(heartbeat);
      if (!tunnel) return;
      if (this.tunnels.get(agent.nodeId) === tunnel) this.tunnels.delete(agent.nodeId);
      this.presence
        .offline(agent, connectionId)
        .catch((error: unknown) => log.warn({ reason: describeError(error) }, 'agent offline not recorded'));
    });
  }

  /** Closes the node's tunnel if this process holds it. */
  end(nodeId: string, code: number, reason: string): void {
    this.tunnels.get(nodeId)?.socket.close(code, reason);
  }

  /** The node was revoked: its tunnel closes, here or on whichever gateway holds it. */
  async revoked(nodeId: string): Promise<void> {
    this.end(nodeId, TUNNEL_CLOSE.revoked, 'revoked');
    if (this.deps.dbKind === 'postgres')
      await this.deps.db.execute(sql`select pg_notify(${REVOKED_CHANNEL}, ${nodeId})`);
  }

  /** Closes every tunnel (the gateway is stopping); agents come back to another or the restarted one. */
  closeAll(): void {
    for (const tunnel of this.tunnels.values()) tunnel.socket.close(1012, 'gateway restarting');
  }

  private async welcome(tunnel: Tunnel, hello: Hello): Promise<boolean> {
    const { agent, connectionId, socket } = tunnel;
    if (!(await this.presence.online(agent, connectionId, hello))) {
      socket.close(TUNNEL_CLOSE.revoked, 'revoked');
      return false;
    }
    if (socket.readyState !== socket.OPEN) {
      await this.presence.offline(agent, connectionId);
      return false;
    }
    this.tunnels.get(agent.nodeId)?.socket.close(TUNNEL_CLOSE.replaced, 'replaced by a newer tunnel');
    this.tunnels.set(agent.nodeId, tunnel);
    const welcome: Welcome = {
      type: 'welcome',
      nodeId: agent.nodeId,
      heartbeatSeconds: this.deps.config.agentHeartbeatSeconds,
    };
    socket.send(JSON.stringify(welcome));
    return true;
  }

  private keepAlive(tunnel: Tunnel): NodeJS.Timeout {
    let unanswered = 0;
    tunnel.socket.on('pong', () => {
      unanswered = 0;
      this.presence.seen(tunnel.agent.nodeId, tunnel.connectionId).catch(() => undefined);
    });
    return setInterval(() => {
      if (++unanswered > MISSED_HEARTBEATS) {
        tunnel.socket.terminate();
        return;
      }
      tunnel.socket.ping();
    }, this.deps.config.agentHeartbeatSeconds * 1000);
  }
}
