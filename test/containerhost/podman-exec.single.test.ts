import { eq, like } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../src/db/schema/index.js';
import { eventually } from '../support/eventually.js';
import { expectError } from '../support/expectations.js';
import { podmanNodeFor, podmanSkipReason, podmanSuite, relayedNodeFor } from './helpers.js';
import { openTerminal, type TerminalClient, type TerminalRefusal } from './stream-clients.js';

// Commands in a container on a real engine (Podman): run to completion, and the interactive terminal
// over a real WebSocket.
const suite = podmanSuite();
const { run, names } = suite;

describe.skipIf(Boolean(podmanSkipReason))('container hosts against Podman: exec and terminal', () => {
  const node = podmanNodeFor(suite);
  const events = (action: string) =>
    node.gateway.deps.db.select().from(auditEvents).where(eq(auditEvents.action, action));

  describe('exec (POST …/containers/:containerId/exec)', () => {
    const exec = (body: unknown, container = names.web) =>
      node.gateway.call('POST', `${node.base()}/containers/${container}/exec`, { body });

    it('runs a command to completion and answers its exit code and output', async () => {
      const result = await exec({ cmd: ['sh', '-c', 'echo out; echo err >&2; exit 3'] });
      expect(result.status).toBe(200);
      expect(result.body.data).toEqual({
        exitCode: 3,
        stdout: 'out\n',
        stderr: 'err\n',
        truncated: false,
        timedOut: false,
        durationMs: expect.any(Number),
      });
    });

    it('runs with the given environment and working directory', async () => {
      const result = await exec({
        cmd: ['sh', '-c', 'echo "$GREETING"; pwd'],
        env: { GREETING: 'hello from exec' },
        workingDir: '/www',
      });
      expect(result.body.data.stdout).toBe('hello from exec\n/www\n');
    });

    it('keeps 1 MiB of output and says it dropped the rest', async () => {
      const script = 'i=0; while [ $i -lt 70000 ]; do echo 0123456789abcdef; i=$((i+1)); done';
      const result = await exec({ cmd: ['sh', '-c', script] });
      expect(result.body.data).toMatchObject({ exitCode: 0, truncated: true });
      expect(result.body.data.stdout.length).toBe(1024 * 1024);
    });

    it('stops waiting at timeoutSeconds and answers no exit code', async () => {
      const result = await exec({ cmd: ['sleep', '30'], timeoutSeconds: 1 });
      expect(result.body.data).toMatchObject({ exitCode: null, timedOut: true });
    });

    it('records the command, exit code and duration, never the output or the variables', async () => {
      await exec({ cmd: ['sh', '-c', 'echo secret-output'], env: { TOKEN: 'secret-value' } });
      const recorded = (await events('containerhost.container.executed')).find((event) =>
        JSON.stringify(event.metadata.cmd).includes('secret-output'),
      );
      expect(recorded?.metadata).toMatchObject({
        exitCode: 0,
        envNames: ['TOKEN'],
        durationMs: expect.any(Number),
      });
      expect(JSON.stringify(recorded)).not.toContain('secret-value');
      expect(JSON.stringify(recorded?.metadata)).not.toContain('secret-output\\n');
    });

    it('answers 409 with the engine reason for a stopped container', async () => {
      const result = await exec({ cmd: ['true'] }, names.idle);
      expectError(result, 409, 'CONFLICT');
      expect(result.body.details).toMatchObject({
        reason: 'ENGINE_CONFLICT',
        explanation: expect.any(String),
      });
    });

    it('answers 404 for an unknown container', async () => {
      expectError(await exec({ cmd: ['true'] }, `ig-${run}-missing`), 404, 'NOT_FOUND');
    });
  });

  describe('terminal (GET …/containers/:containerId/terminal, WebSocket)', () => {
    const relayed = relayedNodeFor(node);
    const url = (container = names.web, nodeId = node.nodeId, query = '') =>
      `${relayed.base}/api/containerhost/nodes/${nodeId}/containers/${container}/terminal${query}`;
    const bearer = (token = node.gateway.adminToken) => ({ authorization: `Bearer ${token}` });
    const open = async (...args: Parameters<typeof openTerminal>) => {
      const opened = await openTerminal(...args);
      if (!('ws' in opened)) throw new Error(`terminal refused: ${JSON.stringify(opened)}`);
      return opened as TerminalClient;
    };
    const refusal = async (...args: Parameters<typeof openTerminal>) =>
      (await openTerminal(...args)) as TerminalRefusal;

    it('opens a shell: echo hi answers hi, a resize reaches the TTY, exit closes the socket', async () => {
      const terminal = await open(url(), bearer());
      terminal.type('echo hi\n');
      await terminal.waitFor(/\r\nhi\r\n/);
      terminal.resize(100, 40);
      terminal.type('stty size\n');
      await terminal.waitFor(/40 100/);
      terminal.type('exit 7\n');
      expect(await terminal.closed).toEqual({ code: 1000 });
      expect(terminal.controls).toContainEqual({ type: 'exit', exitCode: 7 });
    });

    it('records the session opening and closing with its exit code and duration, not the keystrokes', async () => {
      const terminal = await open(url(), bearer());
      terminal.type('echo typed-secret\nexit 0\n');
      await terminal.closed;
      const closed = await eventually(async () => {
        const all = await events('containerhost.container.terminal_closed');
        return all.find((event) => event.metadata.exitCode === 0);
      });
      expect(closed.metadata).toMatchObject({ cmd: ['/bin/sh'], durationMs: expect.any(Number) });
      expect((await events('containerhost.container.terminal_opened')).length).toBeGreaterThanOrEqual(2);
      const all = await node.gateway.deps.db
        .select()
        .from(auditEvents)
        .where(like(auditEvents.action, 'containerhost.container.terminal%'));
      expect(JSON.stringify(all)).not.toContain('typed-secret');
    });

    it('runs the command named by ?cmd=', async () => {
      const terminal = await open(url(names.web, node.nodeId, '?cmd=/bin/echo&cmd=from-cmd'), bearer());
      await terminal.waitFor(/from-cmd/);
      expect(await terminal.closed).toEqual({ code: 1000 });
    });

    it("ends the engine's side when the client closes the socket", async () => {
      const terminal = await open(url(names.web, relayed.nodeId), bearer());
      await terminal.waitFor(/# /);
      expect(relayed.relay.openStreams()).toBe(1);
      terminal.ws.close();
      await eventually(() => relayed.relay.openStreams() === 0, 'the engine connection to close');
    });

    it('refuses an upgrade without a token with 401', async () => {
      const result = await refusal(url(), {});
      expect(result).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    });

    it('refuses a viewer with 403', async () => {
      const viewer = await node.gateway.tokenWithScopes(['containerhost:view']);
      expect(await refusal(url(), bearer(viewer))).toMatchObject({
        status: 403,
        body: { code: 'FORBIDDEN' },
      });
    });

    it('opens for containerhost:manage on this node, and answers 404 before the upgrade on another', async () => {
      const token = await node.gateway.tokenWithScopes([`containerhost:manage:${relayed.nodeId}`]);
      const terminal = await open(url(names.web, relayed.nodeId, '?cmd=/bin/echo&cmd=scoped'), bearer(token));
      await terminal.waitFor(/scoped/);
      expect(await refusal(url(names.web, node.nodeId), bearer(token))).toMatchObject({
        status: 404,
        body: { code: 'NOT_FOUND' },
      });
    });

    it('answers 404 before the upgrade for an unknown container', async () => {
      const result = await refusal(url(`ig-${run}-missing`), bearer());
      expect(result).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    });

    it('answers 409 before the upgrade for a stopped container', async () => {
      expect(await refusal(url(names.idle), bearer())).toMatchObject({
        status: 409,
        body: { code: 'CONFLICT' },
      });
    });

    it('answers 400 to a plain GET that asks for no upgrade', async () => {
      const result = await node.gateway.call('GET', `${node.base()}/containers/${names.web}/terminal`);
      expectError(result, 400, 'VALIDATION_ERROR');
    });

    describe('with the session cookie', () => {
      let cookie: string;
      beforeAll(async () => {
        const email = `terminal-${run}@test`;
        const password = 'terminal test password';
        await node.gateway.call('POST', '/api/admin/users', {
          body: { email, name: 'Terminal', group: 'admins', password },
        });
        const login = await node.gateway.call('POST', '/auth/login', {
          token: null,
          body: { email, password },
        });
        cookie = String(login.headers['set-cookie']).split(';')[0]!;
      });

      it('opens from the same origin', async () => {
        const terminal = await open(url(), { cookie, origin: relayed.base });
        terminal.type('exit 0\n');
        expect(await terminal.closed).toEqual({ code: 1000 });
      });

      it('refuses another origin with 403', async () => {
        const result = await refusal(url(), { cookie, origin: 'https://evil.example' });
        expect(result).toMatchObject({ status: 403, body: { details: { reason: 'CROSS_ORIGIN' } } });
      });

      it('refuses an upgrade without an Origin with 403', async () => {
        const result = await refusal(url(), { cookie });
        expect(result).toMatchObject({ status: 403, body: { details: { reason: 'CROSS_ORIGIN' } } });
      });
    });
  });
});
