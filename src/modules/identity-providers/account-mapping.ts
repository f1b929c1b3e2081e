import { eq } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { AuditRecorder } from '../../core/audit-recorder.js';
import type { DbOrTx } from '../../db/client.js';
import { groups, type identityProviders, users } from '../../db/schema/index.js';

type ProviderRow = typeof identityProviders.$inferSelect;

/**
 * A single sign-on that ends without a session; `reason` (e.g. `SSO_USER_DISABLED`) is what the
 * sign-in page is told, `email` what the failed login is counted against when it is known.
 */
export class SsoRefusal extends Error {
  constructor(
    readonly reason: string,
    readonly email: string | null = null,
  ) {
    super(reason);
    this.name = 'SsoRefusal';
  }
}

/** The email a provider vouches for: present, not marked unverified, under an allowed domain. */
export function vouchedEmail(provider: ProviderRow, claims: Record<string, unknown>): string {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!/^[^\s@]+@[^\s@]+$/.test(email) || claims.email_verified === false)
    throw new SsoRefusal('SSO_EMAIL_MISSING');
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const allowed = provider.allowedEmailDomains;
  if (allowed.length > 0 && !allowed.includes(domain)) throw new SsoRefusal('SSO_EMAIL_NOT_ALLOWED', email);
  return email;
}

/** The provider groups in the configured claim: a list of strings, or one string. */
function providerGroupsOf(provider: ProviderRow, claims: Record<string, unknown>): string[] {
  const value = provider.groupsClaim ? claims[provider.groupsClaim] : undefined;
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * The gateway group this sign-in puts the person in: with a groups claim, the first mapping rule
 * that matches (else the default group) is applied at every sign-in; without one, only new
 * accounts get the default group and existing ones keep theirs (undefined).
 */
function mappedGroupId(provider: ProviderRow, claims: Record<string, unknown>): string | null | undefined {
  if (!provider.groupsClaim) return undefined;
  const held = new Set(providerGroupsOf(provider, claims));
  const rule = provider.groupMap.find((mapping) => held.has(mapping.providerGroup));
  return rule?.groupId ?? provider.defaultGroupId;
}

export interface SignedInAccount {
  id: string;
  email: string;
  /** Whether the sign-in changed who the user is (a new account, another group): caches must go. */
  changed: boolean;
}

/**
 * Finds the account of a vouched email inside the sign-in's transaction, creating it at a first
 * sign-in when the provider allows, and applies the mapped group. Refuses disabled accounts.
 */
export async function accountFor(
  tx: DbOrTx,
  audit: AuditRecorder,
  provider: ProviderRow,
  email: string,
  claims: Record<string, unknown>,
  actorOf: (user: { id: string; email: string }) => AuditActor,
): Promise<SignedInAccount> {
  const via = { via: 'oidc', identityProvider: provider.name };
  const mapped = mappedGroupId(provider, claims);
  const groupId = mapped === undefined ? provider.defaultGroupId : mapped;
  const [existing] = await tx
    .select({ id: users.id, email: users.email, groupId: users.groupId, disabled: users.disabled })
    .from(users)
    .where(eq(users.email, email));
  if (existing?.disabled) throw new SsoRefusal('SSO_USER_DISABLED', email);
  if (!existing && !provider.autoCreateUsers) throw new SsoRefusal('SSO_USER_UNKNOWN', email);
  if (mapped === null || (!existing && !groupId)) throw new SsoRefusal('SSO_NO_GROUP', email);
  const [group] = groupId ? await tx.select().from(groups).where(eq(groups.id, groupId)) : [];
  if (!existing) {
    if (!group) throw new SsoRefusal('SSO_NO_GROUP', email);
    const name =
      typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim().slice(0, 255) : email;
    const [created] = await tx
      .insert(users)
      .values({ email, name, groupId: group.id })
      .returning({ id: users.id });
    const user = { id: created!.id, email };
    await audit.record(tx, actorOf(user), {
      action: 'users.user.created',
      targetType: 'user',
      targetId: user.id,
      metadata: { email, name, groupName: group.name, withPassword: false, ...via },
    });
    return { ...user, changed: true };
  }
  if (mapped && group && existing.groupId !== group.id) {
    await tx.update(users).set({ groupId: group.id, updatedAt: new Date() }).where(eq(users.id, existing.id));
    await audit.record(tx, actorOf(existing), {
      action: 'users.user.group_changed',
      targetType: 'user',
      targetId: existing.id,
      metadata: { groupName: group.name, ...via },
    });
    return { id: existing.id, email, changed: true };
  }
  return { id: existing.id, email, changed: false };
}
