import { and, eq, sql } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { AuditAction } from '../../core/audit-actions.js';
import type { AuditEntry } from '../../core/audit-recorder.js';
import type { Deps } from '../../core/deps.js';
import { groups, users } from '../../db/schema/index.js';
import type { User } from './schemas.js';

/** A user's record as the API answers it, joined with its group. */
export const userColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  groupId: users.groupId,
  // Aliased, so that the columns keep distinct names when an update returns them through a CTE.
  groupName: sql<string>`${groups.name}`.as('group_name'),
  scopes: groups.scopes,
  disabled: users.disabled,
  hasPassword: sql<boolean>`${users.passwordHash} is not null`.as('has_password'),
  totpEnabled: sql<boolean>`exists (select 1 from user_totp where user_totp.user_id = users.id
    and user_totp.enabled_at is not null)`.as('totp_enabled'),
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

/** A change of one column of a user's account. */
export type UserChange = { name: string } | { groupId: string } | { disabled: boolean };
type ChangedColumn = 'name' | 'groupId' | 'disabled';
type Run = (parameters: Record<string, unknown>, actor: AuditActor, entry: AuditEntry) => Promise<User[]>;

/**
 * The one-column changes of a user (rename, move to another group, disable or enable), each a
 * prepared statement that updates the user, records the audit event and answers the user's record
 * (`AuditRecorder.prepareChange`). Prepared on first use.
 */
export class UserChanges {
  private readonly statements = new Map<ChangedColumn, Run>();

  constructor(private readonly deps: Pick<Deps, 'db' | 'audit'>) {}

  /** Answers the changed user, or nothing if there is no such user (nothing is then recorded). */
  async apply(
    actor: AuditActor,
    id: string,
    action: AuditAction,
    change: UserChange,
    metadata: Record<string, unknown>,
  ): Promise<User | undefined> {
    const [column, value] = Object.entries(change)[0] as [ChangedColumn, unknown];
    const run = this.statements.get(column) ?? this.prepare(column);
    const [user] = await run({ id, value }, actor, { action, targetType: 'user', targetId: id, metadata });
    return user;
  }

  private prepare(column: ChangedColumn): Run {
    const { db, audit } = this.deps;
    const value = sql`${sql.placeholder('value')}`;
    const changed = db.$with('changed').as(
      db
        .update(users)
        .set({ [column]: value, updatedAt: sql`now()` })
        .from(groups)
        // The group joined is the new one when the change moves the user.
        .where(
          and(
            eq(users.id, sql.placeholder('id')),
            eq(groups.id, column === 'groupId' ? value : users.groupId),
          ),
        )
        .returning(userColumns),
    );
    const run = audit.prepareChange(db, `user_${column}`, changed, (query) => query.select().from(changed));
    this.statements.set(column, run);
    return run;
  }
}
