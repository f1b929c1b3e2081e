import crypto from 'node:crypto';
import net from 'node:net';
import type { Deps } from '../../../core/deps.js';
import type { EgressGuard } from '../../../core/egress-guard.js';
import type { DnsProviderClient } from './dns-provider.js';

/** Where and how to send RFC 2136 updates: the primary server and the TSIG key (RFC 8945) that signs them. */
export interface Rfc2136Settings {
  server: string;
  port: number;
  zone: string;
  tsigKeyName: string;
  tsigAlgorithm: 'hmac-sha256' | 'hmac-sha384' | 'hmac-sha512';
  /** The key itself, base64. */
  tsigSecret: string;
  ttl: number;
}

const TYPE_TXT = 16;
const TYPE_SOA = 6;
const TYPE_TSIG = 250;
const CLASS_IN = 1;
const CLASS_NONE = 254;
const CLASS_ANY = 255;
const OPCODE_UPDATE = 5;
/** Seconds of clock difference the server may accept (RFC 8945 recommends 300). */
const FUDGE = 300;
const TIMEOUT_MS = 10_000;

const RCODES = [
  'NOERROR',
  'FORMERR',
  'SERVFAIL',
  'NXDOMAIN',
  'NOTIMP',
  'REFUSED',
  'YXDOMAIN',
  'YXRRSET',
  'NXRRSET',
  'NOTAUTH',
  'NOTZONE',
];
const TSIG_ERRORS: Record<number, string> = { 16: 'BADSIG', 17: 'BADKEY', 18: 'BADTIME', 22: 'BADTRUNC' };

/** A name in wire form, lowercase and uncompressed (the canonical form TSIG signs). */
function wireName(name: string): Buffer {
  const labels = name.replace(/\.$/, '').toLowerCase().split('.').filter(Boolean);
  return Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'ascii')])),
    Buffer.from([0]),
  ]);
}

const u16 = (value: number) => {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value);
  return buffer;
};
const u32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
};
const u48 = (value: number) => {
  const buffer = Buffer.alloc(6);
  buffer.writeUIntBE(value, 0, 6);
  return buffer;
};

/** TXT RDATA: the value as character-strings of at most 255 bytes each. */
function txtData(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  for (let offset = 0; offset < bytes.length || parts.length === 0; offset += 255) {
    const piece = bytes.subarray(offset, offset + 255);
    parts.push(Buffer.from([piece.length]), piece);
  }
  return Buffer.concat(parts);
}

function record(name: string, type: number, klass: number, ttl: number, data: Buffer): Buffer {
  return Buffer.concat([wireName(name), u16(type), u16(klass), u32(ttl), u16(data.length), data]);
}

/** The TSIG variables that follow the message in the signed data (RFC 8945 section 4.3.3). */
function tsigVariables(settings: Rfc2136Settings, timeSigned: number, error: number, other: Buffer): Buffer {
  return Buffer.concat([
    wireName(settings.tsigKeyName),
    u16(CLASS_ANY),
    u32(0),
    wireName(settings.tsigAlgorithm),
    u48(timeSigned),
    u16(FUDGE),
    u16(error),
    u16(other.length),
    other,
  ]);
}

function hmac(settings: Rfc2136Settings, ...parts: Buffer[]): Buffer {
  const digest = settings.tsigAlgorithm.replace('hmac-', '');
  const mac = crypto.createHmac(digest, Buffer.from(settings.tsigSecret, 'base64'));
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/** Skips a possibly compressed name and answers the offset after it. */
function skipName(message: Buffer, offset: number): number {
  for (;;) {
    const length = message.readUInt8(offset);
    if (length === 0) return offset + 1;
    if ((length & 0xc0) === 0xc0) return offset + 2;
    offset += length + 1;
  }
}

/** Finds the TSIG record that closes a response and checks its MAC against the request's. */
function verifyResponse(settings: Rfc2136Settings, response: Buffer, requestMac: Buffer): string | undefined {
  const counts = [4, 6, 8, 10].map((at) => response.readUInt16BE(at));
  if (counts[3] === 0) return 'the response is not signed';
  let offset = 12;
  for (let index = 0; index < counts[0]!; index++) offset = skipName(response, offset) + 4;
  const records = counts[1]! + counts[2]! + counts[3]!;
  for (let index = 0; index < records - 1; index++) {
    offset = skipName(response, offset) + 8;
    offset += 2 + response.readUInt16BE(offset);
  }
  const tsigStart = offset;
  let at = skipName(response, offset);
  if (response.readUInt16BE(at) !== TYPE_TSIG) return 'the last record of the response is not TSIG';
  at = skipName(response, at + 10);
  const timeSigned = response.readUIntBE(at, 6);
  const macSize = response.readUInt16BE(at + 8);
  const mac = response.subarray(at + 10, at + 10 + macSize);
  at += 10 + macSize;
  const originalId = response.readUInt16BE(at);
  const error = response.readUInt16BE(at + 2);
  const other = response.subarray(at + 6, at + 6 + response.readUInt16BE(at + 4));
  if (error !== 0) return `TSIG error ${TSIG_ERRORS[error] ?? error}`;
  const unsigned = Buffer.from(response.subarray(0, tsigStart));
  unsigned.writeUInt16BE(originalId, 0);
  unsigned.writeUInt16BE(counts[3]! - 1, 10);
  const expected = hmac(
    settings,
    u16(requestMac.length),
    requestMac,
    unsigned,
    tsigVariables(settings, timeSigned, error, other),
  );
  if (mac.length !== expected.length || !crypto.timingSafeEqual(mac, expected))
    return 'the TSIG signature of the response does not verify';
  return undefined;
}

/** One request, one response over TCP (2-byte length prefix), to an address the egress guard allowed. */
async function exchange(egress: EgressGuard, settings: Rfc2136Settings, message: Buffer): Promise<Buffer> {
  const address = await egress.resolve(settings.server);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port: settings.port });
    let received = Buffer.alloc(0);
    socket.setTimeout(TIMEOUT_MS, () =>
      socket.destroy(new Error(`no answer from ${settings.server}:${settings.port}`)),
    );
    socket.on('connect', () => socket.write(Buffer.concat([u16(message.length), message])));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 2 && received.length >= 2 + received.readUInt16BE(0)) {
        socket.destroy();
        resolve(received.subarray(2, 2 + received.readUInt16BE(0)));
      }
    });
    socket.on('error', reject);
    socket.on('close', () =>
      reject(new Error(`${settings.server}:${settings.port} closed without an answer`)),
    );
  });
}

/**
 * RFC 2136 dynamic updates signed with TSIG, as BIND, Knot and PowerDNS accept them: adds or removes
 * one TXT record in the configured zone and fails with the server's RCODE (or TSIG error) otherwise.
 */
export class Rfc2136Provider implements DnsProviderClient {
  private readonly settings: Rfc2136Settings;
  private readonly egress: EgressGuard;

  constructor(deps: Pick<Deps, 'egress'> & { settings: Rfc2136Settings }) {
    this.settings = deps.settings;
    this.egress = deps.egress;
  }

  addTxt(name: string, value: string): Promise<void> {
    return this.update(record(name, TYPE_TXT, CLASS_IN, this.settings.ttl, txtData(value)));
  }

  removeTxt(name: string, value: string): Promise<void> {
    return this.update(record(name, TYPE_TXT, CLASS_NONE, 0, txtData(value)));
  }

  private async update(change: Buffer): Promise<void> {
    const settings = this.settings;
    const id = crypto.randomInt(0, 65_536);
    const header = Buffer.concat([u16(id), u16(OPCODE_UPDATE << 11), u16(1), u16(0), u16(1), u16(0)]);
    const zone = Buffer.concat([wireName(settings.zone), u16(TYPE_SOA), u16(CLASS_IN)]);
    const unsigned = Buffer.concat([header, zone, change]);
    const timeSigned = Math.floor(Date.now() / 1000);
    const mac = hmac(settings, unsigned, tsigVariables(settings, timeSigned, 0, Buffer.alloc(0)));
    const tsig = record(
      settings.tsigKeyName,
      TYPE_TSIG,
      CLASS_ANY,
      0,
      Buffer.concat([
        wireName(settings.tsigAlgorithm),
        u48(timeSigned),
        u16(FUDGE),
        u16(mac.length),
        mac,
        u16(id),
        u16(0),
        u16(0),
      ]),
    );
    const signed = Buffer.concat([unsigned, tsig]);
    signed.writeUInt16BE(1, 10);
    const response = await exchange(this.egress, settings, signed);
    const rcode = response.readUInt16BE(2) & 0x0f;
    const problem = verifyResponse(settings, response, mac);
    const where = `${settings.server}:${settings.port} (zone ${settings.zone})`;
    if (rcode !== 0) {
      throw new Error(
        `DNS update refused by ${where}: ${RCODES[rcode] ?? `RCODE ${rcode}`}${problem ? ` (${problem})` : ''}`,
      );
    }
    if (problem) throw new Error(`DNS update answer from ${where} not trusted: ${problem}`);
  }
}
