/**
 * Every refusal of the gateway is the envelope `{code, message, details?}` (docs/ARCHITECTURE.md,
 * "Errors"); validation details are `[{path, message}]`, other causes name `details.reason` and
 * often `details.explanation`. The OpenAPI document describes only successful answers, so the
 * envelope is read here, once, defensively.
 */

export interface FieldIssue {
  path: (string | number)[];
  message: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldIssues(details: unknown): FieldIssue[] {
  if (!Array.isArray(details)) return [];
  return details.flatMap((issue) =>
    isRecord(issue) && Array.isArray(issue.path) && typeof issue.message === 'string'
      ? [
          {
            path: issue.path.filter((part) => typeof part === 'string' || typeof part === 'number'),
            message: issue.message,
          },
        ]
      : [],
  );
}

/** A refusal answered by the gateway (or a network failure, status 0). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;

  constructor(status: number, body: unknown) {
    const envelope = isRecord(body) ? body : {};
    super(typeof envelope.message === 'string' ? envelope.message : `The gateway answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = typeof envelope.code === 'string' ? envelope.code : 'UNKNOWN';
    this.details = envelope.details;
  }

  /** `details.reason` of the envelope, e.g. `CSRF_TOKEN_INVALID`. */
  get reason(): string | undefined {
    return isRecord(this.details) && typeof this.details.reason === 'string'
      ? this.details.reason
      : undefined;
  }

  /** `details.explanation`: why, in words a person can act on. */
  get explanation(): string | undefined {
    return isRecord(this.details) && typeof this.details.explanation === 'string'
      ? this.details.explanation
      : undefined;
  }

  /** `details.requiredScope` of a 403. */
  get requiredScope(): string | undefined {
    return isRecord(this.details) && typeof this.details.requiredScope === 'string'
      ? this.details.requiredScope
      : undefined;
  }

  /** The validation issues of a 400, each naming the field it is about. */
  get issues(): FieldIssue[] {
    return this.code === 'VALIDATION_ERROR' ? fieldIssues(this.details) : [];
  }
}

/** `USER_EMAIL_TAKEN` → `user email taken`. */
function reasonInWords(reason: string): string {
  return reason.toLowerCase().replaceAll('_', ' ');
}

/** One sentence for a banner or a toast: the message, then why (the explanation or the reason). */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const why = error.explanation ?? (error.reason ? reasonInWords(error.reason) : undefined);
  return why ? `${error.message}: ${why}` : error.message;
}

export interface FormErrors {
  /** Messages for the form's own fields, keyed as the form names them (`scopes.2`, `name`). */
  fields: Record<string, string>;
  /** What the banner above the form says: the message, and issues no field of the form shows. */
  banner: string | undefined;
}

/** `[2]` → `item 3`, `['tls', 'ca']` → `tls.ca`: where inside a field an issue lies. */
function placeWithin(path: (string | number)[]): string {
  return path.map((part) => (typeof part === 'number' ? `item ${part + 1}` : part)).join('.');
}

/**
 * Which field a refusal with a `details.reason` is about, for reasons a form can point at:
 * `{CERTIFICATE_NAME_TAKEN: 'name', KEY_MISMATCH: 'privateKeyPem'}`.
 */
export type ReasonFields = Readonly<Record<string, string>>;

/**
 * Splits a refusal between the form's fields and its banner: each validation issue goes to the
 * field its path names or lies under (`['scopes', 2]` → `scopes`, saying which item), a reason the
 * form maps to a field goes there (its explanation, or the reason in words), the envelope's
 * message and every issue no field of the form shows go to the banner.
 */
export function formErrors(
  error: unknown,
  fieldNames: readonly string[],
  reasonFields: ReasonFields = {},
): FormErrors {
  const reasonField = error instanceof ApiError && error.reason ? reasonFields[error.reason] : undefined;
  if (error instanceof ApiError && error.reason && reasonField && fieldNames.includes(reasonField)) {
    return {
      fields: { [reasonField]: error.explanation ?? reasonInWords(error.reason) },
      banner: error.message,
    };
  }
  if (!(error instanceof ApiError) || error.issues.length === 0) {
    return { fields: {}, banner: describeError(error) };
  }
  const placed = new Map<string, string[]>();
  const unplaced: string[] = [];
  for (const issue of error.issues) {
    const key = issue.path.join('.');
    const field = fieldNames.find((name) => key === name || key.startsWith(`${name}.`));
    if (!field) {
      unplaced.push(key ? `${key} ${issue.message}` : issue.message);
      continue;
    }
    const within = issue.path.slice(field.split('.').length);
    const message = within.length > 0 ? `${placeWithin(within)}: ${issue.message}` : issue.message;
    placed.set(field, [...(placed.get(field) ?? []), message]);
  }
  const fields = Object.fromEntries([...placed].map(([field, messages]) => [field, messages.join('; ')]));
  const banner = unplaced.length > 0 ? `${error.message}: ${unplaced.join('; ')}` : error.message;
  return { fields, banner };
}
