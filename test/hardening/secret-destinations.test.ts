import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type CaptureServer, secretSeenIn, startCaptureServer } from '../services/capture-server.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import type { SecretDestinationCase } from './secret-destinations/case.js';

/**
 * The rule of src/core/trust-boundary.ts, proven on every record that holds a write-only secret: a
 * change of where the secret is sent drops it unless the change sends it again, so pointing a
 * record at a place of one's own never hands over the secret stored for the old place.
 */

const CASES_DIR = path.join(import.meta.dirname, 'secret-destinations');

// Every file of the folder is loaded: a new area's case is walked without being named here.
const caseFiles = fs
  .readdirSync(CASES_DIR)
  .filter((file) => file.endsWith('.ts') && file !== 'case.ts')
  .sort();
const loaded = await Promise.all(
  caseFiles.map(async (file) => ({
    file,
    exports: (await import(path.join(CASES_DIR, file))) as Record<string, unknown>,
  })),
);
const isCase = (value: unknown): value is SecretDestinationCase =>
  typeof value === 'object' && value !== null && 'operation' in value && 'retarget' in value;
// A file exports its cases one by one or as lists (`export const cases = [...]`).
const cases = loaded.flatMap(({ file, exports }) =>
  Object.values(exports)
    .flat()
    .filter(isCase)
    .map((walkCase) => ({ file, walkCase })),
);

/**
 * Write-only fields of a PATCH/PUT that have no destination to move, so no case: the gateway keeps
 * them and sends them nowhere. (The certificates area has no case at all: a DNS provider's TSIG key
 * goes to its server, and no operation changes a provider, so another server is another provider
 * with its own key; ACME account keys and certificate keys sign and are never sent.)
 */
const EXEMPT: Record<string, Record<string, string>> = {
  'PUT /auth/me/password': {
    currentPassword: 'checked against the stored hash, then forgotten',
    newPassword: 'a sign-in password: the gateway keeps its hash and sends it nowhere',
  },
  'PUT /api/admin/users/{id}/password': {
    password: 'a sign-in password: the gateway keeps its hash and sends it nowhere',
  },
  'PUT /api/containerhost/nodes/{nodeId}/registry-credentials/{registry}': {
    password:
      'stored under its registry, the path itself: every PUT carries the password, so none can move it; a move of the node drops them (the registryCredentials case of PATCH /api/containerhost/nodes/{nodeId})',
  },
  'PUT /api/ssl-certificates/{id}': {
    privateKeyPem: 'the key of a certificate the gateway serves itself: it never leaves the gateway',
    privateKeyPassphrase: 'decrypts the uploaded key once and is not stored',
  },
};

/** Request fields named like a secret that are not one (the walk below asks every other such field to be writeOnly). */
const NOT_SECRETS: Record<string, string> = {
  challengeToken:
    'the handle of a login in progress, answered by the gateway to the same client a moment before',
  confirmToken:
    'the handle of a bulk delete the same client just counted (its dry run): it confirms that count, and opens nothing',
};
const SECRET_NAME = /password|passphrase|secret|token|api_?key|private_?key|tls_?key/i;

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is read as plain JSON
type Json = any;

interface BodyField {
  /** `METHOD /path/template` */
  operation: string;
  /** Dotted path in the request body, e.g. `smtp.password`. */
  field: string;
  writeOnly: boolean;
}

/** Every property of every JSON request body of the document, with whether it is marked writeOnly. */
function requestBodyFields(document: Json): BodyField[] {
  const resolve = (schema: Json): Json =>
    schema?.$ref ? resolve(document.components.schemas[schema.$ref.split('/').pop()]) : schema;
  const members = (schema: Json): Json[] =>
    ['anyOf', 'oneOf', 'allOf'].flatMap((key) => (schema[key] ?? []).map(resolve));
  // A nullable secret is `anyOf: [secret, null]`: the marker sits on the member.
  const isWriteOnly = (schema: Json): boolean =>
    schema.writeOnly === true || members(schema).some(isWriteOnly);
  const fields: BodyField[] = [];
  const walk = (operation: string, schema: Json, prefix: string, depth: number) => {
    if (!schema || depth > 8) return;
    for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
      const resolved = resolve(property);
      fields.push({ operation, field: `${prefix}${name}`, writeOnly: isWriteOnly(resolved) });
      walk(operation, resolved, `${prefix}${name}.`, depth + 1);
    }
    for (const member of members(schema)) walk(operation, member, prefix, depth + 1);
    if (schema.items) walk(operation, resolve(schema.items), `${prefix}[].`, depth + 1);
  };
  for (const [route, operations] of Object.entries<Json>(document.paths))
    for (const [method, operation] of Object.entries<Json>(operations)) {
      const schema = operation?.requestBody?.content?.['application/json']?.schema;
      if (schema) walk(`${method.toUpperCase()} ${route}`, resolve(schema), '', 0);
    }
  return fields;
}

const changesARecord = (operation: string) => /^(PATCH|PUT) /.test(operation);
const covers = (walkCase: SecretDestinationCase, { operation, field }: BodyField) =>
  walkCase.operation === operation &&
  (walkCase.secretField === field || walkCase.secretField === field.split('.').pop());

let gateway: TestGateway;
let fields: BodyField[];
beforeAll(async () => {
  // An SMTP send to the capture server (which never greets) ends at the send deadline: a short one
  // keeps that case from waiting the default ten seconds, twice.
  gateway = await startTestGateway({ notify: { ...loadConfig({}).notify, sendTimeoutMs: 2_000 } });
  fields = requestBodyFields((await gateway.call('GET', '/openapi.json', { token: null })).body);
});
afterAll(() => gateway?.close());

describe('a stored secret never follows a changed destination', () => {
  for (const { file, walkCase } of cases) {
    it.skipIf(walkCase.skipReason !== undefined)(
      `${walkCase.operation} (${file}): moving it to a capture server drops ${walkCase.secretField}, and using it there sends nothing of it`,
      async () => {
        const capture: CaptureServer = await startCaptureServer((request) =>
          walkCase.answer?.(request, capture),
        );
        const first = walkCase.peer
          ? await walkCase.peer()
          : await startCaptureServer().then((decoy) => ({ destination: decoy.httpUrl, close: decoy.close }));
        try {
          const recordPath = await walkCase.create(gateway, first.destination);
          await walkCase.use(gateway, recordPath);
          const moved = await walkCase.retarget(gateway, recordPath, capture);
          await walkCase.use(gateway, recordPath);

          expect(
            secretSeenIn(capture.received(), walkCase.secret),
            'the secret reached the new destination',
          ).toBe(undefined);
          expect(moved.status, JSON.stringify(moved.body)).toBe(200);
          expect((moved.body as { droppedSecrets?: string[] }).droppedSecrets).toContain(
            walkCase.secretField,
          );
          expect(JSON.stringify(moved.body)).not.toContain(walkCase.secret);
        } finally {
          await Promise.all([capture.close(), first.close()]);
        }
      },
    );
  }

  it('walks at least one case from every file of secret-destinations/', () => {
    const empty = caseFiles.filter((file) => !cases.some((found) => found.file === file));
    expect(empty).toEqual([]);
  });

  it('has a case for every PATCH or PUT field marked writeOnly, or a reason the field needs none', () => {
    const missing = fields
      .filter((field) => field.writeOnly && changesARecord(field.operation))
      .filter((field) => !cases.some(({ walkCase }) => covers(walkCase, field)))
      .filter((field) => EXEMPT[field.operation]?.[field.field] === undefined)
      .map(({ operation, field }) => `${operation} ${field}`);
    expect(missing).toEqual([]);
  });

  it('walks only PATCH or PUT operations the API has, and exempts only fields it has', () => {
    const operations = new Set(fields.map((field) => field.operation));
    expect(cases.map(({ walkCase }) => walkCase.operation).filter((op) => !operations.has(op))).toEqual([]);
    expect(cases.map(({ walkCase }) => walkCase.operation).filter((op) => !changesARecord(op))).toEqual([]);
    const exempted = Object.entries(EXEMPT).flatMap(([operation, named]) =>
      Object.keys(named).map((field) => ({ operation, field })),
    );
    const stale = exempted.filter(
      (exempt) =>
        !fields.some(
          (field) => field.writeOnly && field.operation === exempt.operation && field.field === exempt.field,
        ),
    );
    expect(stale).toEqual([]);
  });

  it('finds every secret by its marker: a request field named like a secret is writeOnly', () => {
    const unmarked = fields
      .filter((field) => !field.writeOnly)
      .filter((field) => {
        const name = field.field.split('.').pop()!;
        return SECRET_NAME.test(name) && NOT_SECRETS[name] === undefined;
      })
      .map(({ operation, field }) => `${operation} ${field}`);
    expect(unmarked).toEqual([]);
  });
});

describe('the capture server', () => {
  const secret = 'capture-self-test-3f9a1c';
  let capture: CaptureServer;
  beforeAll(async () => {
    capture = await startCaptureServer();
  });
  afterAll(() => capture?.close());

  it('sees a secret sent over HTTP in a header, in basic auth and in a form, and answers 200 {}', async () => {
    const sent: RequestInit[] = [
      { headers: { 'private-token': secret } },
      { headers: { authorization: `Basic ${Buffer.from(`client:${secret}`).toString('base64')}` } },
      // oauth4webapi percent-encodes every character but letters and digits before base64 (RFC 6749 §2.3.1).
      {
        headers: {
          authorization: `Basic ${Buffer.from(`client:${secret.replace(/-/g, '%2D')}`).toString('base64')}`,
        },
      },
      { method: 'POST', body: new URLSearchParams({ client_secret: `${secret} !` }) },
    ];
    for (const init of sent) {
      const before = capture.received().length;
      const answer = await fetch(`${capture.httpUrl}/probe`, init);
      expect(await answer.json()).toEqual({});
      expect(secretSeenIn(capture.received().subarray(before), secret), JSON.stringify(init)).toBeDefined();
    }
  });

  it('sees a secret in a key-value AUTH command, and answers it an error', async () => {
    const socket = net.connect(capture.port, capture.host);
    const reply = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString('latin1');
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.write(`*2\r\n$4\r\nAUTH\r\n$${secret.length}\r\n${secret}\r\n`);
    });
    expect(reply).toMatch(/^-ERR /);
    expect(secretSeenIn(capture.received(), secret)).toBe('as written');
  });

  it('does not see a text that was never sent', () => {
    expect(secretSeenIn(capture.received(), 'never-sent-9b2e77')).toBeUndefined();
  });
});
