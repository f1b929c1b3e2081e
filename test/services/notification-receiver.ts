import crypto from 'node:crypto';
import http from 'node:http';
import { listenOnLoopback } from './peers.js';

/**
 * A loopback HTTP receiver for notifications, as a webhook consumer or a Slack-compatible incoming
 * webhook would be:
 * - `POST /webhook`: JSON, checked against `X-Infragate-Signature: sha256=HMAC(secret, "<ts>.<body>")`
 *   when a secret is given (401 when it does not match);
 * - `POST /slack/<token>`: a Slack incoming webhook; `{text}` required, answers `ok` like Slack does.
 */
export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read payloads freely
  json: any;
}

export interface NotificationReceiver {
  baseUrl: string;
  webhookUrl: string;
  slackUrl: string;
  /** Requests answered with 2xx, in arrival order. */
  accepted: ReceivedRequest[];
  /** Every request, accepted or not. */
  requests: ReceivedRequest[];
  rejectedSignatures: number;
  /** `ok` answers 2xx; `fail` answers 503; `hang` never answers (to kill a sender mid-request). */
  mode: 'ok' | 'fail' | 'hang';
  /** Called when a request arrives, before it is answered. */
  onRequest?: (request: ReceivedRequest) => void;
  stop(): Promise<void>;
}

export async function startNotificationReceiver(
  options: { secret?: string } = {},
): Promise<NotificationReceiver> {
  const hung: http.ServerResponse[] = [];
  const slackToken = crypto.randomBytes(12).toString('hex');
  const receiver: NotificationReceiver = {
    baseUrl: '',
    webhookUrl: '',
    slackUrl: '',
    accepted: [],
    requests: [],
    rejectedSignatures: 0,
    mode: 'ok',
    stop: async () => {
      for (const response of hung) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const answer = (response: http.ServerResponse, status: number, text: string) =>
    response.writeHead(status, { 'content-type': 'text/plain' }).end(text);

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const received = {
        path: new URL(request.url ?? '/', 'http://receiver').pathname,
        headers: request.headers,
        body,
        json,
      };
      receiver.requests.push(received);
      receiver.onRequest?.(received);
      if (receiver.mode === 'hang') return void hung.push(response);
      if (receiver.mode === 'fail') return answer(response, 503, 'receiver is down');
      if (received.path === '/webhook') {
        if (options.secret && !signatureMatches(options.secret, request.headers, body)) {
          receiver.rejectedSignatures += 1;
          return answer(response, 401, 'bad signature');
        }
        receiver.accepted.push(received);
        return answer(response, 204, '');
      }
      if (received.path === `/slack/${slackToken}`) {
        if (typeof (json as { text?: unknown })?.text !== 'string') return answer(response, 400, 'no_text');
        receiver.accepted.push(received);
        return answer(response, 200, 'ok');
      }
      answer(response, 404, 'no_service');
    });
  });
  const port = await listenOnLoopback(server);
  receiver.baseUrl = `http://127.0.0.1:${port}`;
  receiver.webhookUrl = `${receiver.baseUrl}/webhook`;
  receiver.slackUrl = `${receiver.baseUrl}/slack/${slackToken}`;
  return receiver;
}

function signatureMatches(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const timestamp = String(headers['x-infragate-timestamp'] ?? '');
  const expected = `sha256=${crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  const given = String(headers['x-infragate-signature'] ?? '');
  return (
    given.length === expected.length && crypto.timingSafeEqual(Buffer.from(given), Buffer.from(expected))
  );
}
