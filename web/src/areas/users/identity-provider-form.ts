import type { Answer, Body } from '../../api/types';

export type IdentityProvider = Answer<'/api/admin/identity-providers', 'get'>['data'][number];
type NewProvider = Body<'/api/admin/identity-providers', 'post'>;
type ProviderChange = Body<'/api/admin/identity-providers/{id}', 'patch'>;

/** One line of the group mapping: a group the provider names → the gateway group it means. */
export interface GroupMapping {
  providerGroup: string;
  group: string;
}

/** What the provider dialog holds; the client secret starts empty (write-only). */
export interface ProviderFormValues extends Record<string, unknown> {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  groupsClaim: string;
  groupMap: GroupMapping[];
  autoCreateUsers: boolean;
  defaultGroup: string | null;
  allowedEmailDomains: string[];
  enabled: boolean;
}

/** The scopes a new provider asks for unless told otherwise (the gateway's own default). */
export const DEFAULT_SCOPES = ['openid', 'email', 'profile'];

export const NEW_PROVIDER: ProviderFormValues = {
  name: '',
  issuer: '',
  clientId: '',
  clientSecret: '',
  scopes: DEFAULT_SCOPES,
  groupsClaim: '',
  groupMap: [],
  autoCreateUsers: false,
  defaultGroup: null,
  allowedEmailDomains: [],
  enabled: true,
};

/** A stored provider as the dialog shows it (the secret is never sent back, so it starts empty). */
export function formValuesOf(provider: IdentityProvider): ProviderFormValues {
  return {
    name: provider.name,
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: '',
    scopes: provider.scopes,
    groupsClaim: provider.groupsClaim ?? '',
    groupMap: Object.entries(provider.groupMap).map(([providerGroup, group]) => ({ providerGroup, group })),
    autoCreateUsers: provider.autoCreateUsers,
    defaultGroup: provider.defaultGroup,
    allowedEmailDomains: provider.allowedEmailDomains,
    enabled: provider.enabled,
  };
}

/** The mapping lines as the API's object, without lines left wholly empty. */
function groupMapOf(lines: readonly GroupMapping[]): Record<string, string> {
  const filled = lines.filter((line) => line.providerGroup.trim() || line.group);
  return Object.fromEntries(filled.map((line) => [line.providerGroup.trim(), line.group]));
}

/** The fields both a new provider and a change send as they are. */
function statedFields(values: ProviderFormValues) {
  return {
    name: values.name,
    issuer: values.issuer.trim(),
    clientId: values.clientId.trim(),
    groupMap: groupMapOf(values.groupMap),
    autoCreateUsers: values.autoCreateUsers,
    allowedEmailDomains: values.allowedEmailDomains,
    enabled: values.enabled,
  };
}

/** A new provider: optional fields left empty are not sent, so the gateway's defaults apply. */
export function newProviderBody(values: ProviderFormValues): NewProvider {
  const groupsClaim = values.groupsClaim.trim();
  return {
    ...statedFields(values),
    clientSecret: values.clientSecret,
    ...(values.scopes.length > 0 ? { scopes: values.scopes } : {}),
    ...(groupsClaim ? { groupsClaim } : {}),
    ...(values.defaultGroup ? { defaultGroup: values.defaultGroup } : {}),
  };
}

/** A change: an empty secret keeps the stored one; an emptied claim or default group clears it. */
export function providerChangeBody(values: ProviderFormValues): ProviderChange {
  return {
    ...statedFields(values),
    scopes: values.scopes,
    groupsClaim: values.groupsClaim.trim() || null,
    defaultGroup: values.defaultGroup || null,
    ...(values.clientSecret ? { clientSecret: values.clientSecret } : {}),
  };
}
