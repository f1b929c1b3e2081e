/**
 * Validation issues in words. The gateway answers a refused body with its validator's phrase per
 * field (`must match pattern "^[^\s@]+@[^\s@]+$"`, `must NOT have fewer than 1 characters`); a person
 * needs a sentence about the field they typed in. One table turns each rule of the schema (the
 * validator's keyword, read back from its phrase) into a sentence about the field's label, and a few
 * fields whose shape a sentence can show (an email address, a web address) get their own.
 */

import { formatBytes } from '../components/format';

/** A rule of the schema, read back from the phrase the validator answered with. */
interface Rule {
  keyword: string;
  /** The number or list the rule names (`8` of "fewer than 8 characters"). */
  limit: string;
}

const PHRASES: [RegExp, string][] = [
  [/^is required$/, 'required'],
  [/^must NOT have fewer than (\d+) characters$/, 'minLength'],
  [/^must NOT have more than (\d+) characters$/, 'maxLength'],
  [/^must NOT have fewer than (\d+) items$/, 'minItems'],
  [/^must NOT have more than (\d+) items$/, 'maxItems'],
  [/^must NOT have duplicate items/, 'uniqueItems'],
  [/^must match pattern\b/, 'pattern'],
  [/^must match format "([^"]+)"$/, 'format'],
  [/^must be >= (-?[\d.]+)$/, 'minimum'],
  [/^must be <= (-?[\d.]+)$/, 'maximum'],
  [/^must be > (-?[\d.]+)$/, 'exclusiveMinimum'],
  [/^must be < (-?[\d.]+)$/, 'exclusiveMaximum'],
  [/^must be one of: (.+)$/, 'enum'],
  [/^must be (integer|number|string|boolean|array|object|null)$/, 'type'],
  [/^must NOT have additional properties$/, 'additionalProperties'],
  [/^must be equal to (one of the allowed values|constant)$/, 'const'],
  [/^must match (exactly one|a) schema in (oneOf|anyOf)$/, 'union'],
];

function ruleOf(message: string): Rule | undefined {
  for (const [phrase, keyword] of PHRASES) {
    const match = phrase.exec(message);
    if (match) return { keyword, limit: match[1] ?? '' };
  }
  return undefined;
}

const TYPE_WORDS: Record<string, string> = {
  integer: 'a whole number',
  number: 'a number',
  string: 'text',
  boolean: 'on or off',
  array: 'a list',
  object: 'a group of settings',
  null: 'empty',
};

const FORMAT_WORDS: Record<string, string> = {
  uuid: 'must be an id (a UUID such as 123e4567-e89b-12d3-a456-426614174000)',
  uri: 'must be a full address such as https://example.com',
  email: 'must be an email address such as name@example.com',
  'date-time': 'must be a date and time',
  hostname: 'must be a host name such as example.com',
  ipv4: 'must be an IPv4 address such as 192.0.2.10',
};

/** What a rule asks of any field, as the end of a sentence that starts with the field's label. */
const RULE_WORDS: Record<string, (limit: string) => string> = {
  required: () => 'is required',
  minLength: (n) => (n === '1' ? 'cannot be empty' : `needs at least ${n} characters`),
  maxLength: (n) => `can be at most ${n} characters long`,
  minItems: (n) => (n === '1' ? 'needs at least one entry' : `needs at least ${n} entries`),
  maxItems: (n) => `takes at most ${n} entries`,
  uniqueItems: () => 'lists the same entry twice',
  pattern: () => 'is not in the expected form',
  format: (format) => FORMAT_WORDS[format] ?? `must be a valid ${format}`,
  minimum: (n) => `must be at least ${n}`,
  maximum: (n) => `must be at most ${n}`,
  exclusiveMinimum: (n) => `must be more than ${n}`,
  exclusiveMaximum: (n) => `must be less than ${n}`,
  enum: (values) => `must be one of ${values.split(', ').join(', ')}`,
  type: (type) => `must be ${TYPE_WORDS[type] ?? type}`,
  additionalProperties: () => 'holds a setting the gateway does not know',
  const: () => 'does not take this value here',
  union: () => 'is not in any of the accepted forms',
};

/**
 * Fields whose shape a sentence can show, by the field's key: `{pattern: {email: …}}`. A rule of a
 * field not named here is said with RULE_WORDS.
 */
const FIELD_WORDS: Record<string, Record<string, string>> = {
  pattern: {
    email: 'Enter an email address such as name@example.com.',
    slug: 'Use lower-case letters, digits and hyphens, starting with a letter or digit.',
    hostname: 'Enter a host name such as example.com.',
    domain: 'Enter a domain name such as example.com.',
  },
  format: { email: 'Enter an email address such as name@example.com.' },
};

const ACRONYMS = new Set([
  'url',
  'uri',
  'pem',
  'ca',
  'tls',
  'ttl',
  'oidc',
  'acme',
  'dns',
  'api',
  'id',
  'sql',
]);

/**
 * A label from a field's key when the form names none: `privateKeyPem` → `Private key PEM`,
 * `filters.destinationId` → `Destination` (an id field is about the record it points at).
 */
export function labelFromKey(key: string): string {
  const last =
    key
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .at(-1) ?? key;
  const words = last
    .replace(/Ids?$/, (suffix) => (suffix === 'Ids' ? 's' : ''))
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((word) => (ACRONYMS.has(word) ? word.toUpperCase() : word));
  const text = words.join(' ') || key;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `name is taken` → `Name is taken.`: a phrase made a sentence. */
export function sentence(phrase: string): string {
  const text = phrase.trim();
  if (!text) return text;
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

const PREDICATE = /^(must|is|are|does|do|has|have|cannot|can|needs|takes|lists|holds|may)\b/;

/**
 * One issue as a sentence about its field. `key` is the field's key (`email`, `filters.nodeId`),
 * `label` how the form names it, `item` which entry of a list field (1-based) the issue is about.
 * A phrase the gateway wrote itself (not the validator's) keeps its words, after the label.
 */
export function issueInWords(message: string, key: string, label: string, item?: number): string {
  const rule = ruleOf(message);
  const fieldKey =
    key
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .at(-1) ?? key;
  const own = rule ? FIELD_WORDS[rule.keyword]?.[fieldKey] : undefined;
  const subject = item === undefined ? label : `${label}, entry ${item}`;
  if (own) return item === undefined ? own : `Entry ${item}: ${own}`;
  // A byte limit reads "5 MiB", not "5242880".
  const limit =
    rule && /bytes$/i.test(fieldKey) && /imum$/.test(rule.keyword)
      ? formatBytes(Number(rule.limit))
      : rule?.limit;
  const predicate = rule ? (RULE_WORDS[rule.keyword]?.(limit ?? '') ?? message) : message;
  if (!rule && /^[A-Z]/.test(message)) return sentence(message);
  // "Name cannot be empty", but "Scopes, entry 3: unknown area …" for a phrase that is no predicate.
  if (!PREDICATE.test(predicate)) return sentence(`${subject}: ${predicate}`);
  return sentence(item === undefined ? `${subject} ${predicate}` : `${subject}, ${predicate}`);
}
