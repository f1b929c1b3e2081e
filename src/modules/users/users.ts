import { and, count, eq, or, type SQL, sql } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import type { AuditAction } from '../../core/audit-actions.js';
import { hashPassword } from '../../core/auth/passwords.js';
import { grantableScopes } from '../../core/auth/scope-input.js';
import { revokeSessions } from '../../core/auth/tokens.js';
import { conflictOnDuplicate, isForeignKeyViolation } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { conflict, invalidField, notFound } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import type { DbOrTx } from '../../db/client.js';
import { groups, identityProviders, users } from '../../db/schema/index.js';
import type { Group, GroupChange, NewGroup, NewUser, User, UserListQuery } from './schemas.js';
import { type UserChange, UserChanges, userColumns } from './user-changes.js';

const groupColumns = {
  id: groups.id,
  name: groups.name,
  scopes: groups.scopes,
  requireMfa: groups.requireMfa,
  createdAt: groups.createdAt,
  userCount: sql<number>`(select count(*)::int from users where users.group_id = groups.id)`,
};

/** An admin acting on their own account through a request (the CLI acts as the system). */
const isSelf = (actor: AuditActor, userId: string) => 'tokenId' in actor && actor.userId === userId;

/** Local user accounts and their groups. Changes drop the principal cache so they take effect at once. */
export class UserService {
  private readonly changes: UserChanges;

  constructor(private readonly deps: Pick<Deps, 'db' | 'audit' | 'principals' | 'secondFactors'>) {
    this.changes = new UserChanges(deps);
  }

  async listUsers(filter: UserListQuery) {
    const conditions: SQL[] = [];
    if (filter.q)
      conditions.push(or(containsText(users.email, filter.q), containsText(users.name, filter.q))!);
    if (filter.groupName) conditions.push(eq(groups.name, filter.groupName));
    if (filter.disabled !== undefined) conditions.push(eq(users.disabled, filter.disabled));
    const where = and(...conditions);
    return fetchPage(
      filter,
      ({ limit, offset }) =>
        this.deps.db
          .select(userColumns)
          .from(users)
          .innerJoin(groups, eq(groups.id, users.groupId))
          .where(where)
          .orderBy(users.email)
          .limit(limit)
          .offset(offset),
      this.deps.db
        .select({ value: count() })
        .from(users)
        .innerJoin(groups, eq(groups.id, users.groupId))
        .where(where),
    );
  }

  async getUser(id: string, db: DbOrTx = this.deps.db): Promise<User> {
    const [row] = await db
      .select(userColumns)
      .from(users)
      .innerJoin(groups, eq(groups.id, users.groupId))
      .where(eq(users.id, id));
    if (!row) throw notFound({ userId: id });
    return row;
  }

  async findUserByEmail(email: string): Promise<User | undefined> {
    const [row] = await this.deps.db
      .select(userColumns)
      .from(users)
      .innerJoin(groups, eq(groups.id, users.groupId))
      .where(eq(users.email, email.trim().toLowerCase()));
    return row;
  }

  async createUser(actor: AuditActor, input: NewUser): Promise<User> {
    const email = input.email.trim().toLowerCase();
    const name = trimmedName(input.name);
    const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
    return this.deps.db.transaction(async (tx) => {
      const group = await this.findGroup(tx, input.group, ['group']);
      const [{ id }] = (await conflictOnDuplicate(
        tx.insert(users).values({ email, name, groupId: group.id, passwordHash }).returning({ id: users.id }),
        'EMAIL_TAKEN',
        { email },
      )) as [{ id: string }];
      await this.deps.audit.record(tx, actor, {
        action: 'users.user.created',
        targetType: 'user',
        targetId: id,
        metadata: { email, name, groupName: group.name, withPassword: passwordHash !== null },
      });
      return this.getUser(id, tx);
    });
  }

  /** A name grants nothing, so other processes' caches may show the old one until their TTL. */
  async renameUser(actor: AuditActor, id: string, rawName: string): Promise<User> {
    const name = trimmedName(rawName);
    const user = await this.updateUser(actor, id, 'users.user.renamed', { name }, { name });
    this.deps.principals.forgetUser(id);
    return user;
  }

  async changeGroup(actor: AuditActor, id: string, groupRef: string): Promise<User> {
    const group = await this.findGroup(this.deps.db, groupRef, ['group']);
    return this.changeUser(
      actor,
      id,
      'users.user.group_changed',
      { groupId: group.id },
      { groupName: group.name },
    );
  }

  async setDisabled(actor: AuditActor, id: string, disabled: boolean): Promise<User> {
    if (disabled && isSelf(actor, id)) {
      throw invalidField(['id'], 'you cannot disable your own account');
    }
    return this.changeUser(
      actor,
      id,
      disabled ? 'users.user.disabled' : 'users.user.enabled',
      { disabled },
      {},
    );
  }

  /** Sets a password and signs the user's browsers out (the admin's own current session survives). */
  async setPassword(actor: AuditActor, id: string, password: string): Promise<User> {
    const passwordHash = await hashPassword(password);
    const user = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({ passwordHash, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning({ id: users.id });
      if (!row) throw notFound({ userId: id });
      const revoked = await revokeSessions(tx, id, (actor as Partial<Actor>).tokenId);
      await this.deps.audit.record(tx, actor, {
        action: 'users.user.password_set',
        targetType: 'user',
        targetId: id,
        metadata: { sessionsRevoked: revoked },
      });
      return this.getUser(id, tx);
    });
    this.deps.principals.invalidate();
    return user;
  }

  /**
   * Deletes an account: its sessions and API tokens go with it at once. The audit trail keeps its
   * history, each event naming the email the user had when it happened.
   */
  async deleteUser(actor: AuditActor, id: string): Promise<void> {
    if (isSelf(actor, id)) throw invalidField(['id'], 'you cannot delete your own account');
    await this.deps.db.transaction(async (tx) => {
      const { email, name, groupName } = await this.getUser(id, tx);
      await tx.delete(users).where(eq(users.id, id));
      await this.deps.audit.record(tx, actor, {
        action: 'users.user.deleted',
        targetType: 'user',
        targetId: id,
        metadata: { email, name, groupName },
      });
    });
    this.deps.principals.invalidate();
  }

  /** Removes a user's TOTP enrolment (a lost phone); their next password login asks for none, or a new one. */
  async resetTotp(actor: AuditActor, id: string): Promise<User> {
    return this.deps.db.transaction(async (tx) => {
      const { email } = await this.getUser(id, tx);
      if (!(await this.deps.secondFactors.remove(tx, id)))
        throw conflict('TOTP_NOT_ENABLED', { explanation: 'this user has no two-factor enrolment' });
      await this.deps.audit.record(tx, actor, {
        action: 'users.user.totp_reset',
        targetType: 'user',
        targetId: id,
        metadata: { email },
      });
      return this.getUser(id, tx);
    });
  }

  async listGroups(): Promise<Group[]> {
    return this.deps.db.select(groupColumns).from(groups).orderBy(groups.name);
  }

  async createGroup(actor: AuditActor, input: NewGroup): Promise<Group> {
    const name = trimmedName(input.name);
    const scopes = grantableScopes(input.scopes);
    return this.deps.db.transaction(async (tx) => {
      const [row] = await conflictOnDuplicate(
        tx.insert(groups).values({ name, scopes }).returning(),
        'GROUP_NAME_TAKEN',
        { name },
      );
      await this.deps.audit.record(tx, actor, {
        action: 'users.group.created',
        targetType: 'group',
        targetId: row!.id,
        metadata: { name, scopes },
      });
      return { ...row!, userCount: 0 };
    });
  }

  async setGroupScopes(actor: AuditActor, id: string, rawScopes: string[]): Promise<Group> {
    const scopes = grantableScopes(rawScopes);
    const group = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.update(groups).set({ scopes }).where(eq(groups.id, id)).returning();
      if (!row) throw notFound({ groupId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'users.group.scopes_changed',
        targetType: 'group',
        targetId: id,
        metadata: { scopes },
      });
      return this.getGroup(id, tx);
    });
    this.deps.principals.invalidate();
    return group;
  }

  /** Renames a group and/or sets whether its members need a second factor; each change is audited. */
  async updateGroup(actor: AuditActor, id: string, change: GroupChange): Promise<Group> {
    const name = change.name === undefined ? undefined : trimmedName(change.name);
    const group = await this.deps.db.transaction(async (tx) => {
      const before = await this.getGroup(id, tx);
      const record = (action: AuditAction, metadata: Record<string, unknown>) =>
        this.deps.audit.record(tx, actor, { action, targetType: 'group', targetId: id, metadata });
      if (name !== undefined && name !== before.name) {
        await conflictOnDuplicate(
          tx.update(groups).set({ name }).where(eq(groups.id, id)),
          'GROUP_NAME_TAKEN',
          {
            name,
          },
        );
        await record('users.group.renamed', { from: before.name, to: name });
      }
      if (change.requireMfa !== undefined && change.requireMfa !== before.requireMfa) {
        await tx.update(groups).set({ requireMfa: change.requireMfa }).where(eq(groups.id, id));
        await record('users.group.mfa_requirement_changed', {
          name: name ?? before.name,
          requireMfa: change.requireMfa,
        });
      }
      return this.getGroup(id, tx);
    });
    this.deps.principals.invalidate();
    return group;
  }

  /** Deletes a group nobody is in and no identity provider maps to; 409 otherwise. */
  async deleteGroup(actor: AuditActor, id: string): Promise<void> {
    const deletion = this.deps.db.transaction(async (tx) => {
      const group = await this.getGroup(id, tx);
      if (group.userCount > 0)
        throw conflict('GROUP_HAS_MEMBERS', {
          members: group.userCount,
          explanation: 'move its members to another group first',
        });
      const mappedBy = await tx
        .select({ name: identityProviders.name })
        .from(identityProviders)
        .where(
          or(
            eq(identityProviders.defaultGroupId, id),
            sql`${identityProviders.groupMap} @> ${JSON.stringify([{ groupId: id }])}::jsonb`,
          ),
        );
      if (mappedBy.length > 0)
        throw conflict('GROUP_IN_USE', {
          identityProviders: mappedBy.map((provider) => provider.name),
          explanation: 'identity providers put people in this group; change their group mapping first',
        });
      await tx.delete(groups).where(eq(groups.id, id));
      await this.deps.audit.record(tx, actor, {
        action: 'users.group.deleted',
        targetType: 'group',
        targetId: id,
        metadata: { name: group.name, scopes: group.scopes },
      });
    });
    // A member added while the group was being deleted: the foreign key refuses the delete.
    await deletion.catch((error: unknown) => {
      throw isForeignKeyViolation(error) ? conflict('GROUP_HAS_MEMBERS') : error;
    });
  }

  private async getGroup(id: string, db: DbOrTx): Promise<Group> {
    const [row] = await db.select(groupColumns).from(groups).where(eq(groups.id, id));
    if (!row) throw notFound({ groupId: id });
    return row;
  }

  private async findGroup(db: DbOrTx, ref: string, path: string[]) {
    const [group] = await db
      .select()
      .from(groups)
      .where(isUuid(ref) ? or(eq(groups.id, ref), eq(groups.name, ref)) : eq(groups.name, ref));
    if (!group) throw invalidField(path, `no group named ${ref}`);
    return group;
  }

  /** A change that can alter what the user's tokens grant: every process drops its cached principals. */
  private async changeUser(
    actor: AuditActor,
    id: string,
    action: AuditAction,
    change: UserChange,
    metadata: Record<string, unknown>,
  ): Promise<User> {
    const user = await this.updateUser(actor, id, action, change, metadata);
    this.deps.principals.invalidate();
    return user;
  }

  /** Updates the user and records the event in one statement; answers the user's record. */
  private async updateUser(
    actor: AuditActor,
    id: string,
    action: AuditAction,
    change: UserChange,
    metadata: Record<string, unknown>,
  ): Promise<User> {
    const user = await this.changes.apply(actor, id, action, change, metadata);
    if (!user) throw notFound({ userId: id });
    return user;
  }
}
