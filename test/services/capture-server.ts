import net from 'node:net';
import { listenOnLoopback } from './peers.js';

/**
 * A raw TCP listener on loopback that keeps every byte it receives, whatever speaks to it: the
 * stand-in for the place an attacker points a record at (test/hardening/secret-destinations.test.ts).
 * It answers just enough for the caller to finish its attempt and go away:
 * - an HTTP/1.x request, once its body is in: what `answer` says, else `200 {}`; then it closes;
 * - anything else on the wire first (RESP, a key-value client's `HELLO`/`AUTH`): `-ERR`, then it closes;
 * - a TLS ClientHello: it closes at once (nothing secret is in a ClientHello).
 */
export interface CapturedRequest {
  method: string;
  /** The request target as sent: path and query. */
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface CapturedAnswer {
  status: number;
  body: unknown;
}

export interface CaptureServer {
  /** `http://127.0.0.1:<port>` */
  httpUrl: string;
  host: string;
  port: number;
  /** Every byte received so far, every connection's in the order they were opened. */
  received(): Buffer;
  /** The HTTP requests it answered. */
  requests: CapturedRequest[];
  close(): Promise<void>;
}

const HTTP_REQUEST_LINE = /^[A-Z]{3,10} \S+ HTTP\/1\.[01]\r\n/;
const TLS_HANDSHAKE = 0x16;
const STATUS_TEXT: Record<number, string> = { 200: 'OK', 401: 'Unauthorized', 404: 'Not Found' };

/** The request once it is all in (headers and body), or undefined while more is to come. */
function completeRequest(data: Buffer): CapturedRequest | undefined {
  const headerEnd = data.indexOf('\r\n\r\n');
  if (headerEnd < 0) return undefined;
  const [requestLine, ...lines] = data.subarray(0, headerEnd).toString('latin1').split('\r\n');
  const [method, path] = requestLine!.split(' ') as [string, string];
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const rest = data.subarray(headerEnd + 4);
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const end = rest.indexOf('0\r\n\r\n');
    return end < 0 ? undefined : { method, path, headers, body: rest.subarray(0, end) };
  }
  const length = Number(headers['content-length'] ?? 0);
  return rest.length < length ? undefined : { method, path, headers, body: rest.subarray(0, length) };
}

function httpAnswer({ status, body }: CapturedAnswer): string {
  const text = JSON.stringify(body);
  return (
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Answer'}\r\ncontent-type: application/json\r\n` +
    `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`
  );
}

export async function startCaptureServer(
  answer: (request: CapturedRequest) => CapturedAnswer | undefined = () => undefined,
): Promise<CaptureServer> {
  const connections: Buffer[][] = [];
  const sockets = new Set<net.Socket>();
  const requests: CapturedRequest[] = [];
  const server = net.createServer((socket) => {
    const chunks: Buffer[] = [];
    connections.push(chunks);
    sockets.add(socket);
    let answered = false;
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (answered) return;
      const data = Buffer.concat(chunks);
      if (data[0] === TLS_HANDSHAKE) {
        answered = true;
        socket.destroy();
        return;
      }
      const start = data.subarray(0, 1024).toString('latin1');
      if (HTTP_REQUEST_LINE.test(start)) {
        const request = completeRequest(data);
        if (!request) return;
        answered = true;
        requests.push(request);
        socket.end(httpAnswer(answer(request) ?? { status: 200, body: {} }));
      } else if (start.includes('\r\n') || data.length >= 1024) {
        answered = true;
        socket.end('-ERR this is not a key-value server\r\n');
      }
    });
  });
  const port = await listenOnLoopback(server);
  return {
    httpUrl: `http://127.0.0.1:${port}`,
    host: '127.0.0.1',
    port,
    received: () => Buffer.concat(connections.flat()),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Every character but letters and digits as `%XX`, as OAuth client authentication encodes a secret. */
const fullyPercentEncoded = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** The base64 characters that depend on `text`'s bytes alone when `offset` bytes (mod 3) precede it. */
function stableBase64(text: string, offset: number): string {
  const bytes = Buffer.from(text, 'latin1');
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  const firstGroup = offset === 0 ? 0 : 1;
  return encoded.slice(4 * firstGroup, 4 * Math.floor((offset + bytes.length) / 3));
}

/**
 * How `secret` shows in `bytes`, or undefined when it does not: as written, percent-encoded (a query,
 * a form, OAuth client authentication), JSON-escaped, in hex, and each of those inside base64 or
 * base64url at any alignment (an `Authorization: Basic` of `client:secret`).
 */
export function secretSeenIn(bytes: Buffer, secret: string): string | undefined {
  const text = bytes.toString('latin1');
  const written = Buffer.from(secret, 'utf8').toString('latin1');
  const spellings: [string, string][] = [
    ['as written', written],
    ['percent-encoded', encodeURIComponent(secret)],
    ['form-encoded', encodeURIComponent(secret).replace(/%20/g, '+')],
    ['fully percent-encoded', fullyPercentEncoded(secret)],
    ['JSON-escaped', JSON.stringify(secret).slice(1, -1)],
  ];
  const forms: [string, string][] = [
    ...spellings,
    ['hex', Buffer.from(written, 'latin1').toString('hex')],
    ['HEX', Buffer.from(written, 'latin1').toString('hex').toUpperCase()],
  ];
  for (const [name, spelling] of spellings)
    for (let offset = 0; offset < 3; offset++) {
      const stable = stableBase64(spelling, offset);
      if (stable.length < 8) continue;
      forms.push([`base64 of it ${name}`, stable]);
      forms.push([`base64url of it ${name}`, stable.replace(/\+/g, '-').replace(/\//g, '_')]);
    }
  return forms.find(([, form]) => text.includes(form))?.[0];
}
