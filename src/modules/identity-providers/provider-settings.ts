import net from 'node:net';
import { inArray, or } from 'drizzle-orm';
import type { EgressPolicy } from '../../config.js';
import { classifyAddress } from '../../core/egress-guard.js';
import { type ValidationIssue, validationError } from '../../core/errors.js';
import { isHostname } from '../../core/hostnames.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import type { DbOrTx } from '../../db/client.js';
import { type GroupMapping, groups } from '../../db/schema/index.js';
import type { NewIdentityProvider } from './schemas.js';

const DEFAULT_SCOPES = ['openid', 'email', 'profile'];

/** A provider's settings as stored (the secret apart), after every rule was checked. */
export interface ProviderSettings {
  name: string;
  issuer: string;
  clientId: string;
  scopes: string[];
  groupsClaim: string | null;
  groupMap: GroupMapping[];
  autoCreateUsers: boolean;
  defaultGroupId: string | null;
  allowedEmailDomains: string[];
  enabled: boolean;
}

/** The settings as an admin states them: group names (or ids) rather than ids. */
export type StatedSettings = Omit<
  Required<NewIdentityProvider>,
  'clientSecret' | 'groupsClaim' | 'defaultGroup'
> & {
  groupsClaim: string | null;
  defaultGroup: string | null;
};

function isLoopbackHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || (net.isIP(bare) !== 0 && classifyAddress(bare) === 'loopback');
}

/** Why an issuer URL is not acceptable, or undefined: https, or http on loopback with `INFRAGATE_EGRESS=any`. */
function issuerProblem(issuer: string, egress: EgressPolicy): string | undefined {
  const url = URL.canParse(issuer) ? new URL(issuer) : undefined;
  if (!url || url.search || url.hash || url.username || url.password)
    return 'must be an https URL without query, fragment or credentials';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname) && egress === 'any') return undefined;
  return 'must be an https URL (http only for a loopback issuer with INFRAGATE_EGRESS=any)';
}

/**
 * Checks a provider's stated settings and turns group names into ids: every problem is reported at
 * once (400 with each field's path). Groups are looked up in `db`, so a transaction sees its own.
 */
export async function checkedSettings(
  db: DbOrTx,
  stated: StatedSettings,
  egress: EgressPolicy,
): Promise<ProviderSettings> {
  const issues: ValidationIssue[] = [];
  const problem = (path: (string | number)[], message: string) => issues.push({ path, message });
  const name = trimmedName(stated.name);
  const issuer = stated.issuer.trim();
  const issuerIssue = issuerProblem(issuer, egress);
  if (issuerIssue) problem(['issuer'], issuerIssue);
  const domains = stated.allowedEmailDomains.map((domain) => domain.trim().toLowerCase());
  domains.forEach((domain, index) => {
    if (!isHostname(domain)) problem(['allowedEmailDomains', index], 'must be a domain such as example.com');
  });
  const mapEntries = Object.entries(stated.groupMap);
  if (mapEntries.length > 0 && !stated.groupsClaim)
    problem(['groupsClaim'], 'name the ID token claim that carries the groups the map is about');
  if (stated.autoCreateUsers && !stated.defaultGroup && !stated.groupsClaim)
    problem(['defaultGroup'], 'new users need a group: set defaultGroup, or groupsClaim with a groupMap');

  const refs = [
    ...new Set([...mapEntries.map(([, ref]) => ref), ...(stated.defaultGroup ? [stated.defaultGroup] : [])]),
  ];
  const found = refs.length
    ? await db
        .select({ id: groups.id, name: groups.name })
        .from(groups)
        .where(or(inArray(groups.name, refs), inArray(groups.id, refs.filter(isUuid))))
    : [];
  const groupOf = (ref: string) => found.find((group) => group.name === ref || group.id === ref);
  for (const [providerGroup, ref] of mapEntries)
    if (!groupOf(ref)) problem(['groupMap', providerGroup], `no group named ${ref}`);
  if (stated.defaultGroup && !groupOf(stated.defaultGroup))
    problem(['defaultGroup'], `no group named ${stated.defaultGroup}`);
  if (issues.length > 0) throw validationError(issues);

  return {
    name,
    issuer,
    clientId: stated.clientId,
    scopes: [...new Set(['openid', ...stated.scopes])],
    groupsClaim: stated.groupsClaim,
    groupMap: mapEntries.map(([providerGroup, ref]) => ({ providerGroup, groupId: groupOf(ref)!.id })),
    autoCreateUsers: stated.autoCreateUsers,
    defaultGroupId: stated.defaultGroup ? groupOf(stated.defaultGroup)!.id : null,
    allowedEmailDomains: [...new Set(domains)],
    enabled: stated.enabled,
  };
}

/** A new provider's settings with the defaults filled in. */
export function statedSettings(input: NewIdentityProvider): StatedSettings {
  return {
    name: input.name,
    issuer: input.issuer,
    clientId: input.clientId,
    scopes: input.scopes ?? DEFAULT_SCOPES,
    groupsClaim: input.groupsClaim ?? null,
    groupMap: input.groupMap ?? {},
    autoCreateUsers: input.autoCreateUsers ?? false,
    defaultGroup: input.defaultGroup ?? null,
    allowedEmailDomains: input.allowedEmailDomains ?? [],
    enabled: input.enabled ?? true,
  };
}
