/**
 * The protobuf wire format of OTLP logs (opentelemetry/proto/collector/logs/v1), decoded into the
 * shape of OTLP's JSON encoding (lowerCamelCase names, 64-bit integers as decimal strings, trace and
 * span ids as hex, `bytesValue` as base64), so one mapping serves both encodings. Hand-written over
 * the handful of messages involved: bounds-checked, without recursion deeper than the OTLP values'
 * own nesting limit, and unknown fields skipped as the format requires.
 */

type Scalar =
  | 'string'
  | 'bool'
  | 'int64'
  | 'uint32'
  | 'enum'
  | 'fixed64'
  | 'fixed32'
  | 'double'
  | 'hex'
  | 'base64';
interface FieldSpec {
  name: string;
  type: Scalar | (() => MessageSpec);
  repeated?: boolean;
}
type MessageSpec = Record<number, FieldSpec>;

const KeyValue = (): MessageSpec => ({
  1: { name: 'key', type: 'string' },
  2: { name: 'value', type: AnyValue },
});
const KeyValues = (): MessageSpec => ({ 1: { name: 'values', type: KeyValue, repeated: true } });
const ArrayValue = (): MessageSpec => ({ 1: { name: 'values', type: AnyValue, repeated: true } });
const AnyValue = (): MessageSpec => ({
  1: { name: 'stringValue', type: 'string' },
  2: { name: 'boolValue', type: 'bool' },
  3: { name: 'intValue', type: 'int64' },
  4: { name: 'doubleValue', type: 'double' },
  5: { name: 'arrayValue', type: ArrayValue },
  6: { name: 'kvlistValue', type: KeyValues },
  7: { name: 'bytesValue', type: 'base64' },
});
const attributes: FieldSpec = { name: 'attributes', type: KeyValue, repeated: true };
const Resource = (): MessageSpec => ({
  1: attributes,
  2: { name: 'droppedAttributesCount', type: 'uint32' },
});
const Scope = (): MessageSpec => ({
  1: { name: 'name', type: 'string' },
  2: { name: 'version', type: 'string' },
  3: attributes,
  4: { name: 'droppedAttributesCount', type: 'uint32' },
});
const LogRecord = (): MessageSpec => ({
  1: { name: 'timeUnixNano', type: 'fixed64' },
  11: { name: 'observedTimeUnixNano', type: 'fixed64' },
  2: { name: 'severityNumber', type: 'enum' },
  3: { name: 'severityText', type: 'string' },
  5: { name: 'body', type: AnyValue },
  6: attributes,
  7: { name: 'droppedAttributesCount', type: 'uint32' },
  8: { name: 'flags', type: 'fixed32' },
  9: { name: 'traceId', type: 'hex' },
  10: { name: 'spanId', type: 'hex' },
  12: { name: 'eventName', type: 'string' },
});
const ScopeLogs = (): MessageSpec => ({
  1: { name: 'scope', type: Scope },
  2: { name: 'logRecords', type: LogRecord, repeated: true },
  3: { name: 'schemaUrl', type: 'string' },
});
const ResourceLogs = (): MessageSpec => ({
  1: { name: 'resource', type: Resource },
  2: { name: 'scopeLogs', type: ScopeLogs, repeated: true },
  3: { name: 'schemaUrl', type: 'string' },
});
const ExportLogsServiceRequest = (): MessageSpec => ({
  1: { name: 'resourceLogs', type: ResourceLogs, repeated: true },
});

/** Messages nest at most this deep (values inside values); deeper input is refused, not walked. */
const MAX_DEPTH = 64;
const WIRE = { varint: 0, fixed64: 1, bytes: 2, fixed32: 5 } as const;
const WIRE_OF: Record<Scalar, number> = {
  string: WIRE.bytes,
  hex: WIRE.bytes,
  base64: WIRE.bytes,
  bool: WIRE.varint,
  int64: WIRE.varint,
  uint32: WIRE.varint,
  enum: WIRE.varint,
  fixed64: WIRE.fixed64,
  double: WIRE.fixed64,
  fixed32: WIRE.fixed32,
};

export class ProtobufError extends Error {}

class Reader {
  constructor(
    readonly buffer: Buffer,
    public pos: number,
    readonly end: number,
  ) {}

  varint(): bigint {
    let result = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (this.pos >= this.end) throw new ProtobufError('truncated varint');
      const byte = this.buffer[this.pos++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return BigInt.asUintN(64, result);
    }
    throw new ProtobufError('varint longer than 10 bytes');
  }

  take(length: number): [number, number] {
    if (length < 0 || this.pos + length > this.end) throw new ProtobufError('field runs past its message');
    const start = this.pos;
    this.pos += length;
    return [start, this.pos];
  }

  skip(wire: number): void {
    if (wire === WIRE.varint) this.varint();
    else if (wire === WIRE.fixed64) this.take(8);
    else if (wire === WIRE.fixed32) this.take(4);
    else if (wire === WIRE.bytes) this.take(Number(this.varint()));
    else throw new ProtobufError(`unsupported wire type ${wire}`);
  }
}

function scalar(reader: Reader, type: Scalar): unknown {
  const { buffer } = reader;
  switch (type) {
    case 'bool':
      return reader.varint() !== 0n;
    case 'int64':
      return BigInt.asIntN(64, reader.varint()).toString();
    case 'uint32':
    case 'enum':
      return Number(BigInt.asIntN(32, reader.varint()));
    case 'fixed64':
      return buffer.readBigUInt64LE(reader.take(8)[0]).toString();
    case 'double':
      return buffer.readDoubleLE(reader.take(8)[0]);
    case 'fixed32':
      return buffer.readUInt32LE(reader.take(4)[0]);
    default: {
      const [start, end] = reader.take(Number(reader.varint()));
      if (type === 'string') return buffer.toString('utf8', start, end);
      return buffer.toString(type, start, end);
    }
  }
}

function message(reader: Reader, spec: MessageSpec, depth: number): Record<string, unknown> {
  if (depth > MAX_DEPTH) throw new ProtobufError(`messages nest deeper than ${MAX_DEPTH} levels`);
  const result: Record<string, unknown> = {};
  while (reader.pos < reader.end) {
    const tag = reader.varint();
    const number = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    const field = Object.hasOwn(spec, number) ? spec[number] : undefined;
    if (!field) {
      reader.skip(wire);
      continue;
    }
    const expected = typeof field.type === 'function' ? WIRE.bytes : WIRE_OF[field.type];
    if (wire !== expected) throw new ProtobufError(`field ${field.name} has wire type ${wire}`);
    let value: unknown;
    if (typeof field.type === 'function') {
      const [start, end] = reader.take(Number(reader.varint()));
      value = message(new Reader(reader.buffer, start, end), field.type(), depth + 1);
    } else value = scalar(reader, field.type);
    if (!field.repeated) result[field.name] = value;
    else if (Array.isArray(result[field.name])) (result[field.name] as unknown[]).push(value);
    else result[field.name] = [value];
  }
  return result;
}

/** An `ExportLogsServiceRequest` in protobuf, as its OTLP/JSON equivalent; throws ProtobufError. */
export function decodeExportLogsRequest(body: Buffer): Record<string, unknown> {
  return message(new Reader(body, 0, body.length), ExportLogsServiceRequest(), 0);
}

function varintBytes(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return bytes;
}

function lengthDelimited(fieldNumber: number, payload: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from([(fieldNumber << 3) | WIRE.bytes, ...varintBytes(payload.length)]),
    payload,
  ]);
}

/**
 * An `ExportLogsServiceResponse`: empty when everything was accepted, else `partial_success` with
 * the count of rejected records and a message.
 */
export function encodeExportLogsResponse(rejected: number, errorMessage: string): Buffer {
  if (rejected === 0) return Buffer.alloc(0);
  const partial = Buffer.concat([
    Buffer.from([(1 << 3) | WIRE.varint, ...varintBytes(rejected)]),
    lengthDelimited(2, Buffer.from(errorMessage, 'utf8')),
  ]);
  return lengthDelimited(1, partial);
}
