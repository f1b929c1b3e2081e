/**
 * What cannot be translated: the caller's request asks for something the target's protocol has no
 * way to say, or is not of the caller's protocol's shape. The data plane answers it as the caller
 * protocol's 400 (invalid request) and sends nothing upstream. `field` is the path in the caller's
 * body (`messages[2].content[0].type`), or in the upstream's answer when `side` is 'upstream' (the
 * plane answers that one as a 502: the upstream spoke its protocol wrongly or beyond the translation).
 */
export class TranslationError extends Error {
  constructor(
    readonly field: string,
    readonly reason: string,
    readonly side: 'caller' | 'upstream' = 'caller',
  ) {
    super(`${field}: ${reason}`);
    this.name = 'TranslationError';
  }
}

export type Json = Record<string, unknown>;

/**
 * Reads the caller's (or the upstream's) JSON by path, refusing with the path when a value is not
 * of the type the protocol gives it. The field path is what the refusal names.
 */
export class Reader {
  constructor(
    readonly path: string,
    readonly value: unknown,
    readonly side: 'caller' | 'upstream' = 'caller',
  ) {}

  /** A field of this object, or (by number, from items()) an element of this array. */
  at(key: string | number): Reader {
    const path = typeof key === 'number' ? `${this.path}[${key}]` : this.path ? `${this.path}.${key}` : key;
    // A field of an absent object is absent: optional fields read without a guard per level.
    const value = !this.present
      ? undefined
      : typeof key === 'number'
        ? (this.value as unknown[])[key]
        : this.object()[key];
    return new Reader(path, value, this.side);
  }

  get present(): boolean {
    return this.value !== undefined && this.value !== null;
  }

  refuse(reason: string): never {
    throw new TranslationError(this.path || 'body', reason, this.side);
  }

  object(): Json {
    if (typeof this.value !== 'object' || this.value === null || Array.isArray(this.value)) {
      this.refuse('must be an object');
    }
    return this.value as Json;
  }

  items(): Reader[] {
    if (!Array.isArray(this.value)) this.refuse('must be an array');
    return this.value.map((_, index) => this.at(index));
  }

  string(): string {
    if (typeof this.value !== 'string') this.refuse('must be a string');
    return this.value;
  }

  number(): number {
    if (typeof this.value !== 'number' || !Number.isFinite(this.value)) this.refuse('must be a number');
    return this.value;
  }

  optionalString(): string | undefined {
    return this.present ? this.string() : undefined;
  }

  optionalNumber(): number | undefined {
    return this.present ? this.number() : undefined;
  }

  /** Refuses every present field of this object that the translation cannot carry. */
  refuseFields(fields: Record<string, string>): void {
    for (const [field, reason] of Object.entries(fields)) {
      if (this.at(field).present) this.at(field).refuse(reason);
    }
  }
}

export function callerBody(body: unknown): Reader {
  return new Reader('', body, 'caller');
}

export function upstreamBody(body: unknown): Reader {
  return new Reader('', body, 'upstream');
}

/** One stream event's JSON data; an upstream event that is not JSON is the upstream's fault. */
export function eventData(data: string, event?: string): Reader {
  try {
    return new Reader(event ?? 'data', JSON.parse(data), 'upstream');
  } catch {
    throw new TranslationError(event ?? 'data', 'is not JSON', 'upstream');
  }
}
