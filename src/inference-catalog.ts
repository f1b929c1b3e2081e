import fs from 'node:fs';
import { Ajv } from 'ajv';
import { type Static, Type } from 'typebox';
import { ConfigError } from './config-error.js';
import { StringEnum } from './core/http-schemas.js';
import { COMPLETION_MODES, INFERENCE_AUTH_TYPES, OAUTH_FLOWS } from './db/schema/index.js';
import { packagePath } from './package-root.js';

/**
 * The inference provider catalog the operator writes (catalog/inference-providers.json, or the file
 * INFRAGATE_INFERENCE_CATALOG names): its format, and its reading and checking. It is configuration:
 * `loadConfig()` reports its problems with every other bad value at start-up, and the inference module
 * takes the entries read then.
 */

export const FAMILIES = ['vendor1', 'vendor2', 'vendor3', 'vendor4', 'custom'] as const;
export const WIRE_PROTOCOLS = [
  'vendor1-responses',
  'vendor1-chat',
  'vendor2-messages',
  'vendor4-content',
] as const;
export const OPERATIONS = ['inference', 'images', 'search', 'realtime'] as const;
export const QUOTA_KINDS = ['vendor1-quota', 'vendor2-oauth', 'vendor3-usage'] as const;

const HttpUrl = Type.String({ minLength: 1, maxLength: 2048 });

/** How an API key travels: `authorization: Bearer <key>` unless the entry says otherwise. */
const ApiKeyHeader = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9-]+$' }),
    prefix: Type.Optional(Type.String({ maxLength: 50 })),
  },
  { additionalProperties: false },
);

/** Where an OAuth entry's authorization server lives; operators (and tests) point it anywhere. */
export const OAuthSettings = Type.Object(
  {
    issuer: Type.Optional(HttpUrl),
    authorizationEndpoint: Type.Optional(HttpUrl),
    tokenEndpoint: HttpUrl,
    deviceAuthorizationEndpoint: Type.Optional(HttpUrl),
    clientId: Type.String({ minLength: 1, maxLength: 255 }),
    scopes: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), { maxItems: 50 }),
    redirectUri: Type.Optional(HttpUrl),
    authorizationParams: Type.Optional(Type.Record(Type.String(), Type.String())),
    /** Lifetime of a redirect session before it expires unanswered; default 600. */
    sessionTtlSeconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 86400 })),
  },
  { additionalProperties: false },
);

/** A provider as the catalog file describes it, with the settings the gateway keeps to itself. */
export const CatalogEntry = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9][a-z0-9._-]*$' }),
    label: Type.String({ minLength: 1, maxLength: 255 }),
    family: StringEnum(FAMILIES),
    wireProtocol: StringEnum(WIRE_PROTOCOLS),
    baseUrl: HttpUrl,
    authTypes: Type.Array(StringEnum(INFERENCE_AUTH_TYPES), { minItems: 1, uniqueItems: true }),
    subscription: Type.Boolean(),
    featured: Type.Boolean(),
    allowBaseUrlOverride: Type.Optional(Type.Boolean()),
    privateNetworkByDefault: Type.Optional(Type.Boolean()),
    supportedOperations: Type.Optional(Type.Array(StringEnum(OPERATIONS), { uniqueItems: true })),
    modelsPath: Type.Optional(Type.String({ minLength: 1, maxLength: 500, pattern: '^/' })),
    quotaKind: Type.Optional(StringEnum(QUOTA_KINDS)),
    termsVersion: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    oauthFlow: Type.Union([StringEnum(OAUTH_FLOWS), Type.Null()]),
    completionMode: Type.Union([StringEnum(COMPLETION_MODES), Type.Null()]),
    apiKeyHeader: Type.Optional(ApiKeyHeader),
    /** Headers sent with every call to the provider (e.g. an API version). */
    extraHeaders: Type.Optional(Type.Record(Type.String(), Type.String())),
    oauth: Type.Optional(OAuthSettings),
  },
  { additionalProperties: false },
);

export const CatalogFile = Type.Object(
  { version: Type.Literal(1), providers: Type.Array(CatalogEntry, { minItems: 1, maxItems: 1000 }) },
  { additionalProperties: false },
);

export type OAuthSettings = Static<typeof OAuthSettings>;
export type CatalogEntry = Static<typeof CatalogEntry>;
export type CatalogFile = Static<typeof CatalogFile>;

/** The catalog shipped with the gateway (package.json "files" includes catalog/). */
export const BUILT_IN_CATALOG = packagePath('catalog', 'inference-providers.json');

const validateFile = new Ajv({ allErrors: true, strict: false }).compile(CatalogFile);

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Rules a JSON schema cannot say: unique ids, OAuth fields that go together, usable URLs. */
function entryProblems(entry: CatalogEntry, at: string): string[] {
  const problems: string[] = [];
  const urls: [string, string | undefined][] = [
    ['baseUrl', entry.baseUrl],
    ['oauth.issuer', entry.oauth?.issuer],
    ['oauth.authorizationEndpoint', entry.oauth?.authorizationEndpoint],
    ['oauth.tokenEndpoint', entry.oauth?.tokenEndpoint],
    ['oauth.deviceAuthorizationEndpoint', entry.oauth?.deviceAuthorizationEndpoint],
    ['oauth.redirectUri', entry.oauth?.redirectUri],
  ];
  for (const [field, value] of urls) {
    if (value !== undefined && !isHttpUrl(value)) problems.push(`${at}.${field}: must be an http(s) URL`);
  }
  const oauth = entry.authTypes.includes('oauth');
  if (oauth !== (entry.oauthFlow !== null))
    problems.push(`${at}.oauthFlow: must be set exactly when authTypes includes oauth`);
  if (oauth !== (entry.completionMode !== null))
    problems.push(`${at}.completionMode: must be set exactly when authTypes includes oauth`);
  if (oauth !== (entry.oauth !== undefined))
    problems.push(`${at}.oauth: must be present exactly when authTypes includes oauth`);
  if (entry.oauthFlow === 'redirect') {
    if (entry.completionMode !== 'paste_callback')
      problems.push(`${at}.completionMode: a redirect flow completes by paste_callback`);
    if (!entry.oauth?.authorizationEndpoint)
      problems.push(`${at}.oauth.authorizationEndpoint: is required for a redirect flow`);
    if (!entry.oauth?.redirectUri) problems.push(`${at}.oauth.redirectUri: is required for a redirect flow`);
  }
  if (entry.oauthFlow === 'device') {
    if (entry.completionMode !== 'device_poll')
      problems.push(`${at}.completionMode: a device flow completes by device_poll`);
    if (!entry.oauth?.deviceAuthorizationEndpoint)
      problems.push(`${at}.oauth.deviceAuthorizationEndpoint: is required for a device flow`);
  }
  return problems;
}

/** Every problem of a catalog file, one line each; an empty list means it is usable. */
export function catalogProblems(text: string): CatalogRead {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problems: [`not valid JSON (${(error as Error).message})`], entries: [] };
  }
  if (!validateFile(parsed)) {
    const problems = (validateFile.errors ?? []).map((issue) => {
      const where = issue.instancePath
        .split('/')
        .slice(1)
        .map((segment) => (/^\d+$/.test(segment) ? `[${segment}]` : `.${segment}`))
        .join('')
        .replace(/^\./, '');
      const detail =
        issue.keyword === 'additionalProperties'
          ? `unknown field ${String(issue.params.additionalProperty)}`
          : issue.keyword === 'required'
            ? `${String(issue.params.missingProperty)} is required`
            : issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)
              ? `must be one of ${issue.params.allowedValues.join(', ')}`
              : (issue.message ?? 'is invalid');
      return `${where || '(top level)'}: ${detail}`;
    });
    return { problems: [...new Set(problems)], entries: [] };
  }
  const { providers } = parsed as CatalogFile;
  const problems: string[] = [];
  const seen = new Set<string>();
  providers.forEach((entry, index) => {
    const at = `providers[${index}]`;
    if (seen.has(entry.id)) problems.push(`${at}.id: duplicate id ${entry.id}`);
    seen.add(entry.id);
    problems.push(...entryProblems(entry, at));
  });
  return { problems, entries: providers };
}

interface CatalogRead {
  problems: string[];
  entries: CatalogEntry[];
}

/**
 * Each catalog file as it was first read. The start-up config check reads and validates the operator's
 * file; the inference module then takes the same entries, so the file is read once per process (a
 * changed file takes effect at the next start, as before).
 */
const reads = new Map<string, CatalogRead>();

/** Reads and checks the catalog at `file`, once; each problem is prefixed with where it came from. */
function readCatalogFile(file: string, variable: string): CatalogRead {
  const source = `${variable}=${file}`;
  let read = reads.get(source);
  if (read === undefined) {
    read = readAndCheck(file, source);
    reads.set(source, read);
  }
  return read;
}

function readAndCheck(file: string, source: string): CatalogRead {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return { problems: [`${source} cannot be read: ${code}`], entries: [] };
  }
  const { problems, entries } = catalogProblems(text);
  return { problems: problems.map((problem) => `${source} is invalid: ${problem}`), entries };
}

/** Problems of the operator's catalog at `file`, for the start-up config check. */
export function catalogFileProblems(file: string): string[] {
  return readCatalogFile(file, 'INFRAGATE_INFERENCE_CATALOG').problems;
}

/** Loads and validates the operator's catalog (or the built-in one); throws a ConfigError listing every problem. */
export function loadCatalog(file: string | undefined): CatalogEntry[] {
  const { problems, entries } = file
    ? readCatalogFile(file, 'INFRAGATE_INFERENCE_CATALOG')
    : readCatalogFile(BUILT_IN_CATALOG, 'built-in catalog');
  if (problems.length > 0) throw new ConfigError(problems);
  return entries;
}
