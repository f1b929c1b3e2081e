/**
 * Every refusal of the gateway is the envelope `{code, message, details?}` (docs/ARCHITECTURE.md,
 * "Errors"); validation details are `[{path, message}]`, other causes name `details.reason` and
 * often `details.explanation`. The OpenAPI document describes only successful answers, so the
 * envelope is read here, once, defensively.
 */

import { issueInWords, labelFromKey, sentence } from './field-messages';

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

/** Field labels of a form by key (`{'filters.nodeId': 'Container-host node'}`); others come from the key. */
export type FieldLabels = Readonly<Record<string, string>>;

/** An issue of no field of the form, in words: its path names the field. */
function looseIssueInWords(issue: FieldIssue, labels: FieldLabels): string {
  const key = issue.path.join('.');
  if (!key) return sentence(issue.message);
  const last = issue.path.at(-1);
  const item = typeof last === 'number' ? last + 1 : undefined;
  const fieldKey = (item === undefined ? issue.path : issue.path.slice(0, -1)).join('.');
  return issueInWords(issue.message, fieldKey, labels[fieldKey] ?? labelFromKey(fieldKey), item);
}

/**
 * One sentence for a banner or a toast. A refusal with an explanation is said by it alone (the
 * envelope's message, "Request could not be processed", tells a person nothing more); one with only a
 * reason says the message and the reason in words; a validation refusal says each issue in words.
 */
export function describeError(error: unknown, labels: FieldLabels = {}): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if (error.explanation) return sentence(error.explanation);
  if (error.reason) return `${error.message}: ${reasonInWords(error.reason)}`;
  if (error.issues.length > 0) return error.issues.map((issue) => looseIssueInWords(issue, labels)).join(' ');
  return error.message;
}

export interface FormErrors {
  /** Messages for the form's own fields, keyed as the form names them (`scopes`, `filters.nodeId`). */
  fields: Record<string, string>;
  /** What the banner above the form says: a pointer to the fields, and issues no field of the form shows. */
  banner: string | undefined;
}

/** The banner of a refusal whose every issue is shown next to its field. */
export const SEE_FIELDS = 'Some fields need a change: see the messages next to them.';

/**
 * Which field a refusal with a `details.reason` is about, for reasons a form can point at:
 * `{CERTIFICATE_NAME_TAKEN: 'name', KEY_MISMATCH: 'privateKeyPem'}`.
 */
export type ReasonFields = Readonly<Record<string, string>>;

/** The form's field an issue lies in or under: the longest name its path starts with. */
function fieldOf(path: (string | number)[], fieldNames: readonly string[]): string | undefined {
  const key = path.join('.');
  return fieldNames
    .filter((name) => key === name || key.startsWith(`${name}.`))
    .sort((a, b) => b.length - a.length)[0];
}

/** An issue in words, shown next to `field`: an entry of a list field is named by its number. */
function placedIssueInWords(issue: FieldIssue, field: string, labels: FieldLabels): string {
  const within = issue.path.slice(field.split('.').length);
  const fieldLabel = labels[field] ?? labelFromKey(field);
  if (within.length === 0) return issueInWords(issue.message, field, fieldLabel);
  if (within.length === 1 && typeof within[0] === 'number') {
    return issueInWords(issue.message, field, fieldLabel, within[0] + 1);
  }
  return looseIssueInWords(issue, labels);
}

/**
 * Splits a refusal between the form's fields and its banner: each validation issue goes, in words,
 * to the field its path names or lies under (`['scopes', 2]` → `scopes`, saying which entry;
 * `['filters', 'destinationId']` → `filters.destinationId`), a reason the form maps to a field goes
 * there (its explanation, or the reason in words), and every issue no field of the form shows goes
 * to the banner.
 */
export function formErrors(
  error: unknown,
  fieldNames: readonly string[],
  reasonFields: ReasonFields = {},
  labels: FieldLabels = {},
): FormErrors {
  const reasonField = error instanceof ApiError && error.reason ? reasonFields[error.reason] : undefined;
  if (error instanceof ApiError && error.reason && reasonField && fieldNames.includes(reasonField)) {
    return {
      fields: { [reasonField]: sentence(error.explanation ?? reasonInWords(error.reason)) },
      banner: SEE_FIELDS,
    };
  }
  if (!(error instanceof ApiError) || error.issues.length === 0) {
    return { fields: {}, banner: describeError(error, labels) };
  }
  const placed = new Map<string, string[]>();
  const unplaced: string[] = [];
  for (const issue of error.issues) {
    const field = fieldOf(issue.path, fieldNames);
    if (!field) unplaced.push(looseIssueInWords(issue, labels));
    else placed.set(field, [...(placed.get(field) ?? []), placedIssueInWords(issue, field, labels)]);
  }
  const fields = Object.fromEntries([...placed].map(([field, messages]) => [field, messages.join(' ')]));
  return { fields, banner: unplaced.length > 0 ? unplaced.join(' ') : SEE_FIELDS };
}
