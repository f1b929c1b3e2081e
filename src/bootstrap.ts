import { count, eq } from 'drizzle-orm';
import { systemActor } from './core/actor.js';
import type { AuditRecorder } from './core/audit-recorder.js';
import { issueToken } from './core/auth/tokens.js';
import type { Db } from './db/client.js';
import { lockForTransaction } from './db/locks.js';
import { groups, users } from './db/schema/index.js';
import { createSetupCode } from './modules/console/setup-codes.js';

export const FIRST_ADMIN_EMAIL = 'admin@localhost';

export interface FirstAdmin {
  /** Its API token, shown once. */
  token: string;
  /** The code of the console's one-time setup link, where the admin sets a password in the browser. */
  setupCode: string;
}

/**
 * On the first start of an empty database, creates `admin@localhost` in `admins` and answers a
 * one-time API token and a one-time console setup code for it; answers undefined when any user
 * exists already.
 */
export async function bootstrapFirstAdmin(
  db: Db,
  audit: AuditRecorder,
  setupCodeTtlSeconds: number,
): Promise<FirstAdmin | undefined> {
  return db.transaction(async (tx) => {
    // Several gateways starting together on one PostgreSQL must create one admin, not race.
    await lockForTransaction(tx, 'firstAdmin');
    const [existing] = await tx.select({ value: count() }).from(users);
    if ((existing?.value ?? 0) > 0) return undefined;
    const [admins] = await tx.select({ id: groups.id }).from(groups).where(eq(groups.name, 'admins'));
    if (!admins) throw new Error("the group 'admins' is missing; the database was not migrated");
    const [admin] = await tx
      .insert(users)
      .values({ email: FIRST_ADMIN_EMAIL, name: 'Administrator', groupId: admins.id })
      .returning({ id: users.id });
    const issued = await issueToken(tx, {
      userId: admin!.id,
      kind: 'api',
      name: 'first start',
      expiresAt: null,
    });
    await audit.record(tx, systemActor(), {
      action: 'users.user.created',
      targetType: 'user',
      targetId: admin!.id,
      metadata: { email: FIRST_ADMIN_EMAIL, groupName: 'admins', reason: 'first start' },
    });
    const setup = await createSetupCode(tx, admin!.id, setupCodeTtlSeconds);
    return { token: issued.token, setupCode: setup.code };
  });
}
