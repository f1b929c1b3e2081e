import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { ConfigError } from '../../config-error.js';
import { type CatalogEntry, CatalogFile } from './schemas.js';

/** The catalog shipped with the gateway (package.json "files" includes catalog/). */
export const BUILT_IN_CATALOG = fileURLToPath(
  new URL('../../../catalog/inference-providers.json', import.meta.url),
);

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
