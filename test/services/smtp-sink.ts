import fs from 'node:fs';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { localhostCertificate } from './openssl-pki.js';
import { listenOnLoopback } from './peers.js';

/**
 * A real SMTP server on loopback (`smtp-server`, the protocol implementation of the nodemailer project)
 * that parses every mail it accepts with `mailparser`. With `tls`, it offers STARTTLS with a certificate
 * for 127.0.0.1 signed by a throw-away CA (`caPem`), or with `tls: 'implicit'` speaks TLS from the first
 * byte (as on port 465); with `username`, it requires AUTH.
 */
export interface SmtpSink {
  port: number;
  caPem: string | undefined;
  mails: ParsedMail[];
  /** How each accepted mail arrived: over TLS or not, and as which user. */
  sessions: { secure: boolean; user: string | undefined }[];
  /** Every AUTH the server was offered, accepted or not: the user and the password it was given. */
  authAttempts: { username: string | undefined; password: string | undefined }[];
  /** `ok` accepts mails; `reject` answers 451 to DATA. */
  mode: 'ok' | 'reject';
  stop(): Promise<void>;
}

export async function startSmtpSink(
  options: { tls?: boolean | 'implicit'; username?: string; password?: string } = {},
): Promise<SmtpSink> {
  const certificate = options.tls ? localhostCertificate() : undefined;
  const sink: SmtpSink = {
    port: 0,
    caPem: certificate ? fs.readFileSync(certificate.ca, 'utf8') : undefined,
    mails: [],
    sessions: [],
    authAttempts: [],
    mode: 'ok',
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    ...(certificate
      ? {
          key: fs.readFileSync(certificate.key),
          cert: fs.readFileSync(certificate.cert),
          secure: options.tls === 'implicit',
        }
      : { disabledCommands: ['STARTTLS'] }),
    authOptional: !options.username,
    allowInsecureAuth: !options.tls,
    logger: false,
    onAuth(auth, _session, callback) {
      sink.authAttempts.push({ username: auth.username, password: auth.password ?? undefined });
      if (auth.username === options.username && auth.password === options.password)
        return callback(null, { user: auth.username });
      callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          if (sink.mode === 'reject') {
            const error = new Error('mailbox busy, try later') as Error & { responseCode: number };
            error.responseCode = 451;
            return callback(error);
          }
          sink.mails.push(mail);
          sink.sessions.push({ secure: session.secure, user: session.user as string | undefined });
          callback();
        })
        .catch(callback);
    },
  });
  sink.port = await listenOnLoopback(server.server);
  if (certificate) fs.rmSync(certificate.dir, { recursive: true, force: true });
  return sink;
}
