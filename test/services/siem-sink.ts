import crypto from 'node:crypto';
import http from 'node:http';
import { listenOnLoopback } from './peers.js';

/**
 * A loopback receiver speaking the two public HTTP formats of the SIEM export:
 * - `POST /webhook`: NDJSON, checked against `X-Infragate-Signature: sha256=HMAC(secret, "<ts>.<body>")`;
 * - `POST /services/collector/event`: Splunk HEC (`Authorization: Splunk <token>`, JSON events, answers
 *   `{"text":"Success","code":0}`, or `{"text":"Invalid token","code":4}` with 403 like Splunk does).
 */
export interface SiemSink {
  baseUrl: string;
  webhookUrl: string;
  /** Events accepted by the webhook endpoint, in arrival order (duplicates kept). */
  webhookEvents: Record<string, unknown>[];
  /** HEC envelopes accepted (`{time, host, source, sourcetype, index?, event}`). */
  hecEvents: Record<string, unknown>[];
  /** Every request, accepted or not. */
  requests: { path: string; headers: http.IncomingHttpHeaders; body: string }[];
  rejectedSignatures: number;
  /** `ok` answers 200; `fail` answers 503; `hang` never answers (to kill a sender mid-request). */
  mode: 'ok' | 'fail' | 'hang';
  /** Called when a request arrives, before it is answered. */
  onRequest?: (path: string) => void;
  stop(): Promise<void>;
}

export async function startSiemSink(options: { secret?: string; hecToken?: string } = {}): Promise<SiemSink> {
  const hung: http.ServerResponse[] = [];
  const sink: SiemSink = {
    baseUrl: '',
    webhookUrl: '',
    webhookEvents: [],
    hecEvents: [],
    requests: [],
    rejectedSignatures: 0,
    mode: 'ok',
    stop: async () => {
      for (const response of hung) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = new URL(request.url ?? '/', 'http://sink').pathname;
      sink.requests.push({ path, headers: request.headers, body });
      sink.onRequest?.(path);
      if (sink.mode === 'hang') {
        hung.push(response);
        return;
      }
      if (sink.mode === 'fail') {
        response.writeHead(503, { 'content-type': 'text/plain' }).end('sink is down');
        return;
      }
      if (path === '/webhook') return webhook(request, response, body);
      if (path === '/services/collector/event') return hec(request, response, body);
      response.writeHead(404).end();
    });
  });

  const webhook = (request: http.IncomingMessage, response: http.ServerResponse, body: string) => {
    const timestamp = String(request.headers['x-infragate-timestamp'] ?? '');
    const expected = `sha256=${crypto
      .createHmac('sha256', options.secret ?? '')
      .update(`${timestamp}.${body}`)
      .digest('hex')}`;
    if (request.headers['x-infragate-signature'] !== expected) {
      sink.rejectedSignatures += 1;
      response.writeHead(401, { 'content-type': 'text/plain' }).end('bad signature');
      return;
    }
    for (const line of body.split('\n')) if (line.trim()) sink.webhookEvents.push(JSON.parse(line));
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  };

  const hec = (request: http.IncomingMessage, response: http.ServerResponse, body: string) => {
    const json = (status: number, answer: object) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    if (request.headers.authorization !== `Splunk ${options.hecToken ?? ''}`) {
      return json(403, { text: 'Invalid token', code: 4 });
    }
    const envelopes: Record<string, unknown>[] = [];
    try {
      // HEC takes several JSON objects back to back, separated by whitespace or nothing.
      for (const text of body.split(/\n(?=\{)/)) if (text.trim()) envelopes.push(JSON.parse(text));
    } catch {
      return json(400, { text: 'Invalid data format', code: 6 });
    }
    if (envelopes.some((envelope) => envelope.event === undefined))
      return json(400, { text: 'Event field is required', code: 12 });
    sink.hecEvents.push(...envelopes);
    json(200, { text: 'Success', code: 0 });
  };

  const port = await listenOnLoopback(server);
  sink.baseUrl = `http://127.0.0.1:${port}`;
  sink.webhookUrl = `${sink.baseUrl}/webhook`;
  return sink;
}
