import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SiemSink, startSiemSink } from '../services/siem-sink.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { createWebhook, fastSiem, HEC_TOKEN, WEBHOOK_SECRET } from './helpers.js';

const PATH = '/api/audit/siem/destinations';
let gateway: TestGateway;
let sink: SiemSink;
let viewer: string;
beforeAll(async () => {
  gateway = await startTestGateway(fastSiem());
  sink = await startSiemSink({ secret: WEBHOOK_SECRET, hecToken: HEC_TOKEN });
  viewer = await gateway.tokenWithScopes(['audit:view']);
});
afterAll(async () => {
  await gateway.close();
  await sink.stop();
});

describe('POST /api/audit/siem/destinations', () => {
  it('creates a webhook destination, answers 201 with its settings and health and never the secret', async () => {
    const result = await gateway.call('POST', PATH, {
      body: {
        name: 'soc-webhook',
        kind: 'webhook',
        url: sink.webhookUrl,
        secret: WEBHOOK_SECRET,
        batchSize: 50,
      },
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      name: 'soc-webhook',
      kind: 'webhook',
      enabled: true,
      url: sink.webhookUrl,
      hasSecret: true,
      batchSize: 50,
      maxAttempts: 8,
      health: { status: 'healthy', circuit: 'closed', consecutiveFailures: 0, lastSuccessAt: null },
    });
    expect(result.text).not.toContain(WEBHOOK_SECRET);
  });

  it('creates a Splunk HEC destination with index and sourcetype, never answering the token', async () => {
    const result = await gateway.call('POST', PATH, {
      body: { name: 'splunk', kind: 'splunk_hec', url: sink.baseUrl, token: HEC_TOKEN, index: 'security' },
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({ kind: 'splunk_hec', index: 'security', hasSecret: true });
    expect(result.text).not.toContain(HEC_TOKEN);
  });

  it('creates a syslog destination with host, port, facility and app name defaults', async () => {
    const result = await gateway.call('POST', PATH, {
      body: { name: 'syslog-1', kind: 'syslog', host: '127.0.0.1', port: 6514 },
    });
    expect(result.status).toBe(201);
    expect(result.body.data).toMatchObject({
      host: '127.0.0.1',
      port: 6514,
      tls: false,
      facility: 13,
      appName: 'infragate',
      hasSecret: false,
    });
  });

  it('keeps credentials out of the audit trail', async () => {
    const events = await gateway.call('GET', '/api/audit/events', {
      query: { action: 'audit.siem_destination.*', limit: 100 },
    });
    expect(events.body.data.length).toBeGreaterThanOrEqual(3);
    expect(events.text).not.toContain(WEBHOOK_SECRET);
    expect(events.text).not.toContain(HEC_TOKEN);
  });

  it('answers 409 for a name already in use', async () => {
    const body = { name: 'dup-name', kind: 'syslog', host: 'localhost', port: 514 };
    expect((await gateway.call('POST', PATH, { body })).status).toBe(201);
    const again = await gateway.call('POST', PATH, { body });
    expectError(again, 409, 'CONFLICT');
    expect(again.body.details.reason).toBe('DESTINATION_NAME_TAKEN');
  });

  it('requires the settings of the kind and refuses settings of another kind with 400', async () => {
    expectValidationError(
      await gateway.call('POST', PATH, { body: { name: 'w', kind: 'webhook', url: sink.webhookUrl } }),
      ['secret'],
    );
    expectValidationError(
      await gateway.call('POST', PATH, { body: { name: 'h', kind: 'splunk_hec', url: sink.baseUrl } }),
      ['token'],
    );
    expectValidationError(
      await gateway.call('POST', PATH, { body: { name: 's', kind: 'syslog', host: 'x' } }),
      ['port'],
    );
    expectValidationError(
      await gateway.call('POST', PATH, {
        body: { name: 's', kind: 'syslog', host: 'x', port: 1, url: sink.webhookUrl },
      }),
      ['url'],
    );
  });

  it('validates kind, name, url, port, facility, batch size, secret length and the CA certificate', async () => {
    const base = { name: 'v', kind: 'syslog', host: 'x', port: 1 };
    const bad: [Record<string, unknown>, (string | number)[]][] = [
      [{ ...base, kind: 'kafka' }, ['kind']],
      [{ ...base, name: '' }, ['name']],
      [{ ...base, name: 'n'.repeat(256) }, ['name']],
      [{ ...base, port: 0 }, ['port']],
      [{ ...base, port: 65536 }, ['port']],
      [{ ...base, facility: 24 }, ['facility']],
      [{ ...base, batchSize: 0 }, ['batchSize']],
      [{ ...base, batchSize: 10_001 }, ['batchSize']],
      [{ ...base, maxAttempts: 101 }, ['maxAttempts']],
      [{ ...base, flushIntervalMs: -1 }, ['flushIntervalMs']],
      [{ ...base, tls: true, caPem: 'not a certificate' }, ['caPem']],
      [{ ...base, startFrom: 'yesterday' }, ['startFrom']],
      [{ name: 'w', kind: 'webhook', url: 'not a url', secret: WEBHOOK_SECRET }, ['url']],
      [{ name: 'w', kind: 'webhook', url: 'ftp://example.com/x', secret: WEBHOOK_SECRET }, ['url']],
      [{ name: 'w', kind: 'webhook', url: 'https://u:p@example.com/x', secret: WEBHOOK_SECRET }, ['url']],
      [{ name: 'w', kind: 'webhook', url: sink.webhookUrl, secret: 'short' }, ['secret']],
      [{ kind: 'webhook' }, ['name']],
    ];
    for (const [body, path] of bad) expectValidationError(await gateway.call('POST', PATH, { body }), path);
  });

  it('refuses a destination the egress policy forbids with 422 naming the rule', async () => {
    const result = await gateway.call('POST', PATH, {
      body: { name: 'metadata', kind: 'webhook', url: 'http://169.254.169.254/hook', secret: WEBHOOK_SECRET },
    });
    expectError(result, 422, 'UNPROCESSABLE_ENTITY');
    expect(result.body.details).toMatchObject({ reason: 'EGRESS_DENIED', explanation: expect.any(String) });
  });

  it('refuses 401 without a token and 403 with only audit:view', async () => {
    const body = { name: 'x', kind: 'syslog', host: 'x', port: 1 };
    expectError(await gateway.call('POST', PATH, { token: null, body }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('POST', PATH, { token: viewer, body }), 403, 'FORBIDDEN');
  });
});

describe('GET /api/audit/siem/destinations', () => {
  it('lists destinations by name with pagination, filtered by kind', async () => {
    const all = await gateway.call('GET', PATH, { token: viewer });
    expect(all.status).toBe(200);
    const names = all.body.data.map((d: { name: string }) => d.name);
    expect(names).toEqual([...names].sort());
    const syslog = await gateway.call('GET', PATH, { query: { kind: 'syslog' } });
    expect(new Set(syslog.body.data.map((d: { kind: string }) => d.kind))).toEqual(new Set(['syslog']));
    expect(all.text).not.toContain(WEBHOOK_SECRET);
    expectValidationError(await gateway.call('GET', PATH, { query: { kind: 'kafka' } }), ['kind']);
  });

  it('refuses 401 without a token and 403 without audit:view', async () => {
    expectError(await gateway.call('GET', PATH, { token: null }), 401, 'UNAUTHORIZED');
    expectError(
      await gateway.call('GET', PATH, { token: await gateway.tokenWithScopes([]) }),
      403,
      'FORBIDDEN',
    );
  });

  it('answers one destination by id and 404 for unknown or malformed ids', async () => {
    const created = await createWebhook(gateway, sink.webhookUrl);
    const result = await gateway.call('GET', `${PATH}/${created.id}`, { token: viewer });
    expect(result.body.data).toMatchObject({ id: created.id, name: created.name });
    expectError(await gateway.call('GET', `${PATH}/${crypto.randomUUID()}`), 404, 'NOT_FOUND');
    expectError(await gateway.call('GET', `${PATH}/nope`), 404, 'NOT_FOUND');
  });
});

describe('PATCH /api/audit/siem/destinations/:id', () => {
  it('renames, rotates the secret without showing it, and changes batching', async () => {
    const created = await createWebhook(gateway, sink.webhookUrl);
    const result = await gateway.call('PATCH', `${PATH}/${created.id}`, {
      body: {
        name: `${created.name}-renamed`,
        secret: 'rotated-secret-abcdefghij',
        batchSize: 7,
        flushIntervalMs: 250,
      },
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({
      name: `${created.name}-renamed`,
      batchSize: 7,
      flushIntervalMs: 250,
      hasSecret: true,
    });
    expect(result.text).not.toContain('rotated-secret');
    const events = await gateway.call('GET', '/api/audit/events', { query: { targetId: created.id } });
    expect(events.text).not.toContain('rotated-secret');
    expect(events.body.data[0].metadata).toMatchObject({ credentialRotated: true });
  });

  it('answers 404 for an unknown destination, 400 for a bad value, 409 for a taken name, 401 and 403', async () => {
    const a = await createWebhook(gateway, sink.webhookUrl);
    const b = await createWebhook(gateway, sink.webhookUrl);
    expectError(
      await gateway.call('PATCH', `${PATH}/${crypto.randomUUID()}`, { body: { enabled: false } }),
      404,
      'NOT_FOUND',
    );
    expectValidationError(await gateway.call('PATCH', `${PATH}/${a.id}`, { body: { batchSize: 0 } }), [
      'batchSize',
    ]);
    expectValidationError(await gateway.call('PATCH', `${PATH}/${a.id}`, { body: { port: 514 } }), ['port']);
    expectError(await gateway.call('PATCH', `${PATH}/${a.id}`, { body: { name: b.name } }), 409, 'CONFLICT');
    expectError(
      await gateway.call('PATCH', `${PATH}/${a.id}`, { token: null, body: {} }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await gateway.call('PATCH', `${PATH}/${a.id}`, { token: viewer, body: {} }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('PATCH /api/audit/siem/destinations/:id: a new URL and the stored credential', () => {
  // A receiver elsewhere that would take the old credential: whatever reaches it is what leaked.
  let elsewhere: SiemSink;
  beforeAll(async () => {
    elsewhere = await startSiemSink({ secret: WEBHOOK_SECRET, hecToken: HEC_TOKEN });
  });
  afterAll(() => elsewhere.stop());

  const createHec = async (url = sink.baseUrl) => {
    const result = await gateway.call('POST', PATH, {
      body: { name: `hec-${crypto.randomUUID()}`, kind: 'splunk_hec', url, token: HEC_TOKEN, enabled: false },
    });
    expect(result.status).toBe(201);
    return result.body.data.id as string;
  };

  it('drops the HEC token when the URL changes without it, and says so in the answer', async () => {
    const id = await createHec();
    const result = await gateway.call('PATCH', `${PATH}/${id}`, { body: { url: elsewhere.baseUrl } });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      data: { url: elsewhere.baseUrl, hasSecret: false },
      droppedSecrets: ['token'],
    });
  });

  it('sends nothing to the new URL of a destination whose token was dropped, and says why', async () => {
    const id = await createHec();
    await gateway.call('PATCH', `${PATH}/${id}`, { body: { url: elsewhere.baseUrl } });
    const test = await gateway.call('POST', `${PATH}/${id}/test`);
    expect(test.body.data).toMatchObject({ ok: false, httpStatus: null });
    expect(test.body.data.error).toBe('no HEC token: it was dropped when the URL changed; set token again');
    expect(JSON.stringify(elsewhere.requests)).not.toContain(HEC_TOKEN);
    expect(elsewhere.requests.filter((request) => request.body.includes(id))).toEqual([]);
  });

  it('names the dropped token in the audit event, never its value', async () => {
    const id = await createHec();
    await gateway.call('PATCH', `${PATH}/${id}`, { body: { url: elsewhere.baseUrl } });
    const events = await gateway.call('GET', '/api/audit/events', {
      query: { targetId: id, action: 'audit.siem_destination.updated' },
    });
    expect(events.body.data[0].metadata).toMatchObject({ url: elsewhere.baseUrl, droppedSecrets: ['token'] });
    expect(events.text).not.toContain(HEC_TOKEN);
  });

  it('keeps the token given again with the new URL, and sends it there', async () => {
    const id = await createHec();
    const result = await gateway.call('PATCH', `${PATH}/${id}`, {
      body: { url: elsewhere.baseUrl, token: HEC_TOKEN },
    });
    expect(result.body.droppedSecrets).toBeUndefined();
    expect(result.body.data.hasSecret).toBe(true);
    const test = await gateway.call('POST', `${PATH}/${id}/test`);
    expect(test.body.data).toMatchObject({ ok: true, httpStatus: 200 });
    expect(elsewhere.hecEvents.map((envelope) => (envelope.event as { id: string }).id)).toContain(
      test.body.data.eventId,
    );
  });

  it('keeps the token through a rename, the same endpoint spelled out, or a new query string', async () => {
    const id = await createHec(`${sink.baseUrl}/`);
    for (const body of [
      { name: `hec-renamed-${crypto.randomUUID()}` },
      { url: `${sink.baseUrl}/services/collector/event/` },
      { url: `${sink.baseUrl}/services/collector/event?channel=audit` },
    ]) {
      const result = await gateway.call('PATCH', `${PATH}/${id}`, { body });
      expect(result.body.droppedSecrets, JSON.stringify(body)).toBeUndefined();
      expect(result.body.data.hasSecret).toBe(true);
    }
    const test = await gateway.call('POST', `${PATH}/${id}/test`);
    expect(test.body.data).toMatchObject({ ok: true, httpStatus: 200 });
  });

  it('drops the webhook signing secret when the URL changes without it, and sends nothing there', async () => {
    const created = await createWebhook(gateway, sink.webhookUrl, { enabled: false });
    const result = await gateway.call('PATCH', `${PATH}/${created.id}`, {
      body: { url: elsewhere.webhookUrl },
    });
    expect(result.body).toMatchObject({ data: { hasSecret: false }, droppedSecrets: ['secret'] });
    const test = await gateway.call('POST', `${PATH}/${created.id}/test`);
    expect(test.body.data.error).toBe(
      'no signing secret: it was dropped when the URL changed; set secret again',
    );
    expect(elsewhere.requests.filter((request) => request.body.includes(created.id))).toEqual([]);
  });

  it('signs with the secret given again with the new webhook URL', async () => {
    const created = await createWebhook(gateway, sink.webhookUrl, { enabled: false });
    const result = await gateway.call('PATCH', `${PATH}/${created.id}`, {
      body: { url: elsewhere.webhookUrl, secret: WEBHOOK_SECRET },
    });
    expect(result.body.droppedSecrets).toBeUndefined();
    const test = await gateway.call('POST', `${PATH}/${created.id}/test`);
    expect(test.body.data).toMatchObject({ ok: true, httpStatus: 200 });
    expect(elsewhere.webhookEvents.map((event) => event.id)).toContain(test.body.data.eventId);
  });
});

describe('DELETE /api/audit/siem/destinations/:id', () => {
  it('deletes a destination, frees its name and answers 404 afterwards', async () => {
    const created = await createWebhook(gateway, sink.webhookUrl);
    const result = await gateway.call('DELETE', `${PATH}/${created.id}`);
    // The exporter may already have queued the destination's own creation event for it, so the
    // discarded count depends on timing here; deliveries.test.ts pins the count down exactly.
    expect(result.body.data).toEqual({ id: created.id, discardedDeliveries: expect.any(Number) });
    expectError(await gateway.call('GET', `${PATH}/${created.id}`), 404, 'NOT_FOUND');
    expectError(await gateway.call('DELETE', `${PATH}/${created.id}`), 404, 'NOT_FOUND');
    expect((await createWebhook(gateway, sink.webhookUrl, { name: created.name })).name).toBe(created.name);
  });

  it('refuses 401 without a token and 403 with only audit:view', async () => {
    const created = await createWebhook(gateway, sink.webhookUrl);
    expectError(await gateway.call('DELETE', `${PATH}/${created.id}`, { token: null }), 401, 'UNAUTHORIZED');
    expectError(await gateway.call('DELETE', `${PATH}/${created.id}`, { token: viewer }), 403, 'FORBIDDEN');
  });
});

describe('POST /api/audit/siem/destinations/:id/test', () => {
  it('sends one signed test event to a webhook and reports success', async () => {
    const created = await createWebhook(gateway, sink.webhookUrl, { enabled: false });
    const result = await gateway.call('POST', `${PATH}/${created.id}/test`);
    expect(result.body.data).toMatchObject({
      ok: true,
      httpStatus: 200,
      error: null,
      destinationId: created.id,
    });
    expect(sink.webhookEvents.filter((event) => event.id === result.body.data.eventId)).toEqual([
      expect.objectContaining({
        action: 'audit.siem.test',
        targetId: created.id,
      }),
    ]);
  });

  it('sends a test event to Splunk HEC with the token header', async () => {
    const created = await gateway.call('POST', PATH, {
      body: { name: 'hec-test', kind: 'splunk_hec', url: sink.baseUrl, token: HEC_TOKEN, enabled: false },
    });
    const result = await gateway.call('POST', `${PATH}/${created.body.data.id}/test`);
    expect(result.body.data).toMatchObject({ ok: true, httpStatus: 200 });
    const received = sink.hecEvents.filter(
      (envelope) => (envelope.event as { id: string }).id === result.body.data.eventId,
    );
    expect(received).toEqual([
      expect.objectContaining({ sourcetype: 'infragate:audit', source: 'infragate' }),
    ]);
  });

  it('reports the receiver refusing the credential as a failed outcome with its answer', async () => {
    const created = await gateway.call('POST', PATH, {
      body: {
        name: 'hec-wrong',
        kind: 'splunk_hec',
        url: sink.baseUrl,
        token: 'wrong-token',
        enabled: false,
      },
    });
    const result = await gateway.call('POST', `${PATH}/${created.body.data.id}/test`);
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ ok: false, httpStatus: 403 });
    expect(result.body.data.error).toContain('Invalid token');
    expect(result.text).not.toContain('wrong-token');
  });

  it('reports an unreachable syslog receiver as a failed outcome', async () => {
    const created = await gateway.call('POST', PATH, {
      body: { name: 'syslog-nowhere', kind: 'syslog', host: '127.0.0.1', port: 1, enabled: false },
    });
    const result = await gateway.call('POST', `${PATH}/${created.body.data.id}/test`);
    expect(result.body.data).toMatchObject({ ok: false, httpStatus: null });
    expect(result.body.data.error).toMatch(/ECONNREFUSED/);
  });

  it('answers 404 for an unknown destination, 401 without a token, 403 with only audit:view', async () => {
    expectError(await gateway.call('POST', `${PATH}/${crypto.randomUUID()}/test`), 404, 'NOT_FOUND');
    const created = await createWebhook(gateway, sink.webhookUrl, { enabled: false });
    expectError(
      await gateway.call('POST', `${PATH}/${created.id}/test`, { token: null }),
      401,
      'UNAUTHORIZED',
    );
    expectError(
      await gateway.call('POST', `${PATH}/${created.id}/test`, { token: viewer }),
      403,
      'FORBIDDEN',
    );
  });
});
