import https from 'node:https';
import type { TLSSocket } from 'node:tls';

export interface HttpsAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The certificate the server presented for the SNI name. */
  fingerprint256: string;
}

export interface HttpsRequest {
  /** Trusted roots: the server's chain must lead to one, else the request fails. */
  ca: string;
  method?: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  json?: unknown;
}

/**
 * A request to `https://{hostname}:{port}{path}` as a browser sends it, but connected to 127.0.0.1
 * (the test's listener) instead of looking the name up: SNI and Host name `hostname`.
 */
export function requestOverHttps(
  port: number,
  hostname: string,
  path: string,
  options: HttpsRequest,
): Promise<HttpsAnswer> {
  const payload = options.json === undefined ? undefined : JSON.stringify(options.json);
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: options.method ?? 'GET',
        servername: hostname,
        ca: options.ca,
        agent: false,
        headers: {
          host: `${hostname}:${port}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (response) => {
        const fingerprint256 = (response.socket as TLSSocket).getPeerCertificate().fingerprint256;
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, fingerprint256 }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}
