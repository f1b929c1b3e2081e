import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, notificationChannels } from '../../src/db/schema/index.js';
import { type NotificationReceiver, startNotificationReceiver } from '../services/notification-receiver.js';
import { type SmtpSink, startSmtpSink } from '../services/smtp-sink.js';
import { expectError, expectValidationError } from '../support/expectations.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { LogCapture } from '../support/log-capture.js';
import { created, createRule, startNotifyGateway } from './helpers.js';

const BASE = '/api/notifications/channels';
const MISSING = '00000000-0000-4000-8000-000000000000';
const SECRETS = [
  'hmac-secret-value-0123456789',
  'header-token-value',
  'smtp-password-value',
  'slack-path-token',
];

const logs = new LogCapture();
let gateway: TestGateway;
let receiver: NotificationReceiver;
beforeAll(async () => {
  gateway = await startNotifyGateway({}, { logLevel: 'trace' }, { logStream: logs });
  receiver = await startNotificationReceiver({ secret: SECRETS[0] });
});
afterAll(async () => {
  await gateway?.close();
  await receiver?.stop();
});

let counter = 0;
const webhookBody = (extra: Record<string, unknown> = {}) => ({
  name: `hook-${++counter}`,
  kind: 'webhook',
  url: receiver.webhookUrl,
  secret: SECRETS[0],
  headers: { 'X-Receiver-Token': SECRETS[1] },
  ...extra,
});
const emailBody = () => ({
  name: `mail-${++counter}`,
  kind: 'email',
  smtp: { host: '127.0.0.1', port: 2525, username: 'alerts', password: SECRETS[2] },
  from: 'infragate@example.test',
  to: ['ops@example.test'],
});
const slackBody = () => ({
  name: `chat-${++counter}`,
  kind: 'slack',
  url: `${receiver.baseUrl}/slack/${SECRETS[3]}`,
});

describe('access to channels', () => {
  const routes = (id: string) =>
    [
      ['GET', BASE],
      ['POST', BASE],
      ['GET', `${BASE}/${id}`],
      ['PATCH', `${BASE}/${id}`],
      ['DELETE', `${BASE}/${id}`],
      ['POST', `${BASE}/${id}/test`],
    ] as const;

  it('refuses every route without a token with 401', async () => {
    for (const [method, url] of routes(MISSING))
      expectError(await gateway.call(method, url, { token: null, body: {} }), 401, 'UNAUTHORIZED');
  });

  it('refuses every route to a token without a notifications scope with 403', async () => {
    const token = await gateway.tokenWithScopes(['certificates:manage']);
    for (const [method, url] of routes(MISSING))
      expectError(await gateway.call(method, url, { token, body: {} }), 403, 'FORBIDDEN');
  });

  it('lets notifications:view read but not change or test', async () => {
    const id = await created(gateway, BASE, webhookBody());
    const token = await gateway.tokenWithScopes(['notifications:view']);
    expect((await gateway.call('GET', BASE, { token })).status).toBe(200);
    expect((await gateway.call('GET', `${BASE}/${id}`, { token })).status).toBe(200);
    for (const [method, url] of routes(id).filter(([method]) => method !== 'GET'))
      expectError(await gateway.call(method, url, { token, body: webhookBody() }), 403, 'FORBIDDEN');
  });
});

describe('creating a channel', () => {
  it('answers 201 with the settings and, for secrets, only whether they are set', async () => {
    const response = await gateway.call('POST', BASE, { body: webhookBody({ name: 'ops hook' }) });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      name: 'ops hook',
      kind: 'webhook',
      enabled: true,
      url: receiver.webhookUrl,
      urlOrigin: receiver.baseUrl,
      hasSecret: true,
      headerNames: ['x-receiver-token'],
      smtp: null,
    });
  });

  it('never shows the Slack URL, which is the credential, only its origin', async () => {
    const response = await gateway.call('POST', BASE, { body: slackBody() });
    expect(response.body.data).toMatchObject({ kind: 'slack', url: null, urlOrigin: receiver.baseUrl });
  });

  it('answers an email channel with its SMTP settings, defaults filled in, and no password', async () => {
    const response = await gateway.call('POST', BASE, { body: emailBody() });
    expect(response.body.data.smtp).toEqual({
      host: '127.0.0.1',
      port: 2525,
      secure: false,
      starttls: 'required',
      username: 'alerts',
      hasPassword: true,
      hasCaPem: false,
    });
  });

  it('keeps the secrets sealed at rest', async () => {
    const id = await created(gateway, BASE, emailBody());
    const [row] = await gateway.deps.db
      .select()
      .from(notificationChannels)
      .where(eq(notificationChannels.id, id));
    expect(row!.secretsSealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(SECRETS[2]);
  });

  it('answers 400 for each missing, misplaced or malformed field, and stores nothing', async () => {
    const before = (await gateway.call('GET', BASE)).body.pagination.total;
    expectValidationError(await gateway.call('POST', BASE, { body: { name: 'x', kind: 'pager' } }), ['kind']);
    expectValidationError(await gateway.call('POST', BASE, { body: { name: 'x', kind: 'webhook' } }), [
      'url',
    ]);
    expectValidationError(
      await gateway.call('POST', BASE, { body: { ...slackBody(), secret: SECRETS[0] } }),
      ['secret'],
    );
    expectValidationError(
      await gateway.call('POST', BASE, { body: webhookBody({ url: 'ftp://example.test/x' }) }),
      ['url'],
    );
    expectValidationError(await gateway.call('POST', BASE, { body: webhookBody({ url: 'not a url' }) }), [
      'url',
    ]);
    expectValidationError(
      await gateway.call('POST', BASE, { body: webhookBody({ url: 'https://user:pw@example.test/' }) }),
      ['url'],
    );
    expectValidationError(await gateway.call('POST', BASE, { body: webhookBody({ secret: 'short' }) }), [
      'secret',
    ]);
    expectValidationError(
      await gateway.call('POST', BASE, {
        body: webhookBody({ headers: { 'X-Infragate-Signature': 'forged' } }),
      }),
      ['headers', 'X-Infragate-Signature'],
    );
    expectValidationError(
      await gateway.call('POST', BASE, { body: webhookBody({ headers: { 'bad header': 'x' } }) }),
      ['headers', 'bad header'],
    );
    expectValidationError(
      await gateway.call('POST', BASE, { body: webhookBody({ headers: { 'X-A': 'line\r\nbreak' } }) }),
      ['headers', 'X-A'],
    );
    expectValidationError(await gateway.call('POST', BASE, { body: { ...emailBody(), to: [] } }), ['to']);
    expectValidationError(await gateway.call('POST', BASE, { body: { ...emailBody(), from: 'nobody' } }), [
      'from',
    ]);
    expectValidationError(
      await gateway.call('POST', BASE, { body: { ...emailBody(), smtp: { host: '127.0.0.1', port: 0 } } }),
      ['smtp', 'port'],
    );
    expectValidationError(
      await gateway.call('POST', BASE, { body: { ...emailBody(), smtp: { host: 'h', caPem: 'not pem' } } }),
      ['smtp', 'caPem'],
    );
    expectValidationError(
      await gateway.call('POST', BASE, { body: { ...emailBody(), smtp: { host: 'h', password: 'p' } } }),
      ['smtp', 'password'],
    );
    expectValidationError(await gateway.call('POST', BASE, { body: { ...webhookBody(), name: '   ' } }), [
      'name',
    ]);
    expectValidationError(
      await gateway.call('POST', BASE, {
        rawBody: '{"name":',
        headers: { 'content-type': 'application/json' },
      }),
      [],
    );
    expect((await gateway.call('GET', BASE)).body.pagination.total).toBe(before);
  });

  it('answers 409 for a name that is taken', async () => {
    await created(gateway, BASE, webhookBody({ name: 'twice' }));
    const again = await gateway.call('POST', BASE, { body: webhookBody({ name: 'twice' }) });
    expectError(again, 409, 'CONFLICT');
    expect(again.body.details.reason).toBe('CHANNEL_NAME_TAKEN');
  });

  it('answers 422 for an address the egress policy refuses', async () => {
    const strict = await startTestGateway({ egress: 'public' });
    try {
      const refused = await strict.call('POST', BASE, { body: webhookBody() });
      expectError(refused, 422, 'UNPROCESSABLE_ENTITY');
      expect(refused.body.details).toMatchObject({ reason: 'EGRESS_DENIED', host: '127.0.0.1' });
    } finally {
      await strict.close();
    }
  });
});

describe('reading, changing and deleting a channel', () => {
  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expectValidationError(await gateway.call('GET', `${BASE}/nope`), ['id']);
    for (const [method, url] of [
      ['GET', `${BASE}/${MISSING}`],
      ['PATCH', `${BASE}/${MISSING}`],
      ['DELETE', `${BASE}/${MISSING}`],
      ['POST', `${BASE}/${MISSING}/test`],
    ] as const)
      expectError(await gateway.call(method, url, { body: {} }), 404, 'NOT_FOUND');
  });

  it('changes only the fields given, keeps secrets not mentioned, and removes one set to null', async () => {
    const id = await created(gateway, BASE, webhookBody());
    const renamed = await gateway.call('PATCH', `${BASE}/${id}`, {
      body: { name: 'renamed hook', enabled: false },
    });
    expect(renamed.body.data).toMatchObject({ name: 'renamed hook', enabled: false, hasSecret: true });
    const unsigned = await gateway.call('PATCH', `${BASE}/${id}`, { body: { secret: null, headers: null } });
    expect(unsigned.body.data).toMatchObject({ hasSecret: false, headerNames: [] });
  });

  it('refuses fields of another kind with 400 and changes nothing', async () => {
    const id = await created(gateway, BASE, slackBody());
    expectValidationError(
      await gateway.call('PATCH', `${BASE}/${id}`, { body: { from: 'a@example.test' } }),
      ['from'],
    );
    expect((await gateway.call('GET', `${BASE}/${id}`)).body.data.from).toBeNull();
  });

  it('refuses to delete a channel that rules send to (409), and deletes it once they no longer do', async () => {
    const id = await created(gateway, BASE, webhookBody());
    const ruleId = await createRule(gateway, 'audit.chain.broken', [id]);
    const refused = await gateway.call('DELETE', `${BASE}/${id}`);
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.details).toMatchObject({ reason: 'CHANNEL_IN_USE', rules: [{ id: ruleId }] });
    expect((await gateway.call('DELETE', `/api/notifications/rules/${ruleId}`)).status).toBe(200);
    expect((await gateway.call('DELETE', `${BASE}/${id}`)).body).toEqual({ success: true });
    expectError(await gateway.call('GET', `${BASE}/${id}`), 404, 'NOT_FOUND');
  });

  it('lists channels filtered by kind and name', async () => {
    await created(gateway, BASE, { ...slackBody(), name: 'findable chat' });
    const found = await gateway.call('GET', BASE, { query: { kind: 'slack', q: 'FINDABLE' } });
    expect(found.body.data.map((channel: { name: string }) => channel.name)).toEqual(['findable chat']);
    expectValidationError(await gateway.call('GET', BASE, { query: { kind: 'pager' } }), ['kind']);
  });
});

describe('a change of destination and the stored secrets', () => {
  // Receivers elsewhere that would take the old secrets: whatever reaches them is what leaked.
  let elsewhere: NotificationReceiver;
  let smtp: SmtpSink;
  beforeAll(async () => {
    elsewhere = await startNotificationReceiver({ secret: SECRETS[0] });
    smtp = await startSmtpSink({ tls: true, username: 'alerts', password: SECRETS[2] });
  });
  afterAll(async () => {
    await elsewhere?.stop();
    await smtp?.stop();
  });

  const patch = (id: string, body: Record<string, unknown>) =>
    gateway.call('PATCH', `${BASE}/${id}`, { body });
  const testSend = (id: string) => gateway.call('POST', `${BASE}/${id}/test`);

  it('drops the signing secret and the secret headers when the webhook URL changes without them', async () => {
    const id = await created(gateway, BASE, webhookBody());
    const result = await patch(id, { url: elsewhere.webhookUrl });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({
      data: { url: elsewhere.webhookUrl, hasSecret: false, headerNames: [] },
      droppedSecrets: ['secret', 'headers'],
    });
  });

  it('sends the new webhook URL neither the secret headers nor a signature made with the old secret', async () => {
    const name = `moved hook ${++counter}`;
    const id = await created(gateway, BASE, webhookBody({ name }));
    await patch(id, { url: elsewhere.webhookUrl });
    await testSend(id);
    const [request] = elsewhere.requests.filter((each) => each.json?.title?.endsWith(` ${name}`));
    expect(request?.headers).toBeDefined();
    expect(request?.headers).not.toHaveProperty('x-receiver-token');
    expect(request?.headers).not.toHaveProperty('x-infragate-signature');
    expect(JSON.stringify(elsewhere.requests)).not.toContain(SECRETS[1]);
  });

  it('names the dropped secrets in the audit event, never their values', async () => {
    const id = await created(gateway, BASE, webhookBody());
    await patch(id, { url: elsewhere.webhookUrl });
    const events = await gateway.call('GET', '/api/audit/events', {
      query: { targetId: id, action: 'notifications.channel.updated' },
    });
    expect(events.body.data[0].metadata).toMatchObject({ droppedSecrets: ['secret', 'headers'] });
    for (const secret of SECRETS) expect(events.text).not.toContain(secret);
  });

  it('keeps the secrets given again with the new URL, and signs and sends them there', async () => {
    const id = await created(gateway, BASE, webhookBody());
    const result = await patch(id, {
      url: elsewhere.webhookUrl,
      secret: SECRETS[0],
      headers: { 'X-Receiver-Token': SECRETS[1] },
    });
    expect(result.body.droppedSecrets).toBeUndefined();
    expect(result.body.data).toMatchObject({ hasSecret: true, headerNames: ['x-receiver-token'] });
    expect((await testSend(id)).body).toEqual({ data: { ok: true } });
    expect(elsewhere.accepted.at(-1)!.headers['x-receiver-token']).toBe(SECRETS[1]);
  });

  it('drops only the secret not given again: new headers with the new URL keep the channel unsigned', async () => {
    const id = await created(gateway, BASE, webhookBody());
    const result = await patch(id, { url: elsewhere.webhookUrl, headers: { 'X-Other': 'fresh-value' } });
    expect(result.body).toMatchObject({
      data: { hasSecret: false, headerNames: ['x-other'] },
      droppedSecrets: ['secret'],
    });
  });

  it('keeps them through a rename or a new query string on the same URL', async () => {
    const id = await created(gateway, BASE, webhookBody());
    for (const body of [{ name: `hook-renamed-${++counter}` }, { url: `${receiver.webhookUrl}?team=ops` }]) {
      const result = await patch(id, body);
      expect(result.body.droppedSecrets, JSON.stringify(body)).toBeUndefined();
      expect(result.body.data).toMatchObject({ hasSecret: true, headerNames: ['x-receiver-token'] });
    }
    expect((await testSend(id)).body).toEqual({ data: { ok: true } });
    expect(receiver.accepted.at(-1)!.headers['x-receiver-token']).toBe(SECRETS[1]);
  });

  it('drops nothing when a Slack URL changes: the URL is the secret, and the change gives the new one', async () => {
    const id = await created(gateway, BASE, slackBody());
    const result = await patch(id, { url: elsewhere.slackUrl });
    expect(result.body.droppedSecrets).toBeUndefined();
    expect((await testSend(id)).body).toEqual({ data: { ok: true } });
  });

  const mailChannel = () =>
    created(gateway, BASE, {
      ...emailBody(),
      smtp: {
        host: 'localhost',
        port: smtp.port,
        caPem: smtp.caPem,
        username: 'alerts',
        password: SECRETS[2],
      },
    });

  it('drops the SMTP password when the server changes without it, and the new server is never offered it', async () => {
    const id = await mailChannel();
    const result = await patch(id, { smtp: { host: '127.0.0.1' } });
    expect(result.body).toMatchObject({
      data: { smtp: { host: '127.0.0.1', username: 'alerts', hasPassword: false } },
      droppedSecrets: ['smtp.password'],
    });
    // The TLS session to the new server was up; the client stopped at AUTH, having no password to give.
    expect((await testSend(id)).body.data).toEqual({ ok: false, error: expect.stringContaining('EAUTH') });
    expect(smtp.authAttempts.map((attempt) => attempt.password)).not.toContain(SECRETS[2]);
  });

  it('drops the SMTP password when the connection is no longer sure to be encrypted', async () => {
    const id = await mailChannel();
    const result = await patch(id, { smtp: { starttls: 'opportunistic' } });
    expect(result.body.droppedSecrets).toEqual(['smtp.password']);
  });

  it('keeps the SMTP password given again with the new server, and signs in there', async () => {
    const id = await mailChannel();
    const result = await patch(id, { smtp: { host: '127.0.0.1', password: SECRETS[2] } });
    expect(result.body.droppedSecrets).toBeUndefined();
    expect((await testSend(id)).body).toEqual({ data: { ok: true } });
    expect(smtp.sessions.at(-1)).toEqual({ secure: true, user: 'alerts' });
  });

  it('keeps the SMTP password through a new sender, user name or CA on the same server', async () => {
    const id = await mailChannel();
    for (const body of [
      { from: 'alerts@example.test' },
      { smtp: { username: 'ops' } },
      { smtp: { caPem: null } },
    ]) {
      const result = await patch(id, body);
      expect(result.body.droppedSecrets, JSON.stringify(body)).toBeUndefined();
      expect(result.body.data.smtp.hasPassword).toBe(true);
    }
  });
});

describe('a test send', () => {
  it('answers ok when the channel took the message', async () => {
    const id = await created(gateway, BASE, webhookBody());
    const result = await gateway.call('POST', `${BASE}/${id}/test`);
    expect(result.body).toEqual({ data: { ok: true } });
    expect(receiver.accepted.at(-1)!.json).toMatchObject({ kind: 'notifications.test', test: true });
  });

  it('answers ok: false with the reason when the channel refused it, without the Slack URL in it', async () => {
    const id = await created(gateway, BASE, {
      ...slackBody(),
      url: `${receiver.baseUrl}/slack/wrong-${SECRETS[3]}`,
    });
    const result = await gateway.call('POST', `${BASE}/${id}/test`);
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({ ok: false, error: 'Slack webhook answered HTTP 404: no_service' });
  });
});

describe('secrets', () => {
  it('never appear in a response, an audit event or a log line', async () => {
    const ids = [
      await created(gateway, BASE, webhookBody()),
      await created(gateway, BASE, emailBody()),
      await created(gateway, BASE, slackBody()),
    ];
    const answers = [await gateway.call('GET', BASE, { query: { limit: 100 } })];
    for (const id of ids) {
      answers.push(await gateway.call('GET', `${BASE}/${id}`));
      answers.push(await gateway.call('PATCH', `${BASE}/${id}`, { body: { enabled: true } }));
      answers.push(await gateway.call('POST', `${BASE}/${id}/test`));
    }
    const events = await gateway.deps.db
      .select()
      .from(auditEvents)
      .where(and(like(auditEvents.action, 'notifications.%')));
    const seen = [...answers.map((answer) => answer.text), JSON.stringify(events), logs.text].join('\n');
    for (const secret of SECRETS) expect(seen).not.toContain(secret);
    expect(events.map((event) => event.action)).toEqual(
      expect.arrayContaining([
        'notifications.channel.created',
        'notifications.channel.updated',
        'notifications.channel.tested',
      ]),
    );
  });
});
