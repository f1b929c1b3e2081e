import fs from 'node:fs';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localhostCertificate, openssl } from '../services/openssl-pki.js';
import { listenOnLoopback } from '../services/peers.js';
import { type RsyslogServer, rsyslogBinary, startRsyslog } from '../services/rsyslog.js';
import { eventually } from '../support/eventually.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { fastSiem, makeEvents, sequenced } from './helpers.js';

const rsyslog = rsyslogBinary();

describe.skipIf(rsyslog.skipReason)(
  `syslog export to rsyslog${rsyslog.skipReason ? ` (${rsyslog.skipReason})` : ''}`,
  () => {
    let gateway: TestGateway;
    let server: RsyslogServer;
    beforeAll(async () => {
      server = await startRsyslog();
      gateway = await startTestGateway(fastSiem());
    });
    afterAll(async () => {
      await gateway?.close();
      await server?.stop();
    });

    it('delivers each event as one RFC 5424 message over TCP with octet-counting framing', async () => {
      const created = await gateway.call('POST', '/api/audit/siem/destinations', {
        body: {
          name: 'rsyslog',
          kind: 'syslog',
          host: '127.0.0.1',
          port: server.port,
          appName: 'infragate-test',
          batchSize: 3,
        },
      });
      expect(created.status).toBe(201);
      await makeEvents(gateway, 5, 'syslog');
      await sequenced(gateway);
      const events = (
        await gateway.call('GET', '/api/audit/events', { query: { limit: 100 } })
      ).body.data.filter((event: { seq: number }) => event.seq > created.body.data.cursorSeq);
      const lines = await eventually(
        () => server.messages().length >= events.length && server.messages(),
        'rsyslog file',
      );
      expect(lines).toHaveLength(events.length);
      for (const line of lines) {
        // <PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [SD] MSG
        const match =
          /^<(\d+)>1 (\S+) (\S+) infragate-test (\d+) (\S+) \[infragate@32473 id="([^"]+)" seq="(\d+)" outcome="success"\] (\{.*\})$/.exec(
            line,
          );
        expect(match, line).not.toBeNull();
        const [, pri, timestamp, , , msgid, id, , json] = match!;
        expect(Number(pri)).toBe(13 * 8 + 6);
        const event = JSON.parse(json!);
        expect(event).toMatchObject({ id, action: msgid, occurredAt: timestamp });
      }
      expect(lines.map((line) => JSON.parse(line.slice(line.indexOf('{'))).id).sort()).toEqual(
        events.map((event: { id: string }) => event.id).sort(),
      );
      // rsyslog has the lines before the gateway records the last batch as delivered.
      const counts = await eventually(async () => {
        const delivered = await gateway.call('GET', '/api/audit/siem/deliveries', {
          query: { destinationId: created.body.data.id, status: 'delivered' },
        });
        const eventCounts: number[] = delivered.body.data.map(
          (row: { eventCount: number }) => row.eventCount,
        );
        return eventCounts.reduce((sum, n) => sum + n, 0) === events.length && eventCounts;
      }, 'every batch recorded as delivered');
      expect(Math.max(...counts)).toBeLessThanOrEqual(3);
    });

    it('reports a test event to rsyslog as delivered', async () => {
      const created = await gateway.call('POST', '/api/audit/siem/destinations', {
        body: { name: 'rsyslog-test', kind: 'syslog', host: 'localhost', port: server.port, enabled: false },
      });
      const before = server.messages().length;
      const result = await gateway.call('POST', `/api/audit/siem/destinations/${created.body.data.id}/test`);
      expect(result.body.data).toMatchObject({ ok: true, error: null });
      await eventually(() => server.messages().length > before, 'test message');
      expect(server.messages().some((line) => line.includes(result.body.data.eventId))).toBe(true);
    });
  },
);

describe.skipIf(!openssl.path)('syslog export over TLS', () => {
  it('sends octet-counted RFC 5424 messages over TLS, trusting the destination caPem', async () => {
    const certificate = localhostCertificate();
    const caPem = fs.readFileSync(certificate.ca, 'utf8');
    let received = Buffer.alloc(0);
    const tlsFiles = { cert: fs.readFileSync(certificate.cert), key: fs.readFileSync(certificate.key) };
    const server = tls.createServer(tlsFiles, (socket) => {
      socket.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
      });
      socket.on('end', () => socket.end());
    });
    const port = await listenOnLoopback(server);
    const gateway = await startTestGateway(fastSiem());
    try {
      const created = await gateway.call('POST', '/api/audit/siem/destinations', {
        body: {
          name: 'syslog-tls',
          kind: 'syslog',
          host: 'localhost',
          port,
          tls: true,
          caPem,
        },
      });
      expect(created.status).toBe(201);
      expect(created.text).not.toContain('BEGIN CERTIFICATE');
      await makeEvents(gateway, 2, 'tls');
      const frames = await eventually(() => {
        const messages: string[] = [];
        let rest = received;
        while (rest.length > 0) {
          const space = rest.indexOf(32);
          const length = Number(rest.subarray(0, space).toString());
          if (rest.length < space + 1 + length) break;
          messages.push(rest.subarray(space + 1, space + 1 + length).toString('utf8'));
          rest = rest.subarray(space + 1 + length);
        }
        return messages.length >= 3 && messages;
      }, 'TLS syslog frames');
      for (const frame of frames)
        expect(frame).toMatch(/^<110>1 \S+ \S+ infragate \d+ \S+ \[infragate@32473 /);
    } finally {
      await gateway.close();
      server.close();
      fs.rmSync(certificate.dir, { recursive: true, force: true });
    }
  });
});
