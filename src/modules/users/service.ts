import { and, count, eq, or, type SQL, sql } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { AuditAction } from '../../core/audit-actions.js';
import { hashPassword } from '../../core/auth/passwords.js';
import { SCOPE_PATTERN } from '../../core/auth/scopes.js';
import { conflictOnDuplicate } from '../../core/db-errors.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, notFound, validationError } from '../../core/errors.js';
import { isUuid } from '../../core/ids.js';
import { trimmedName } from '../../core/names.js';
import { fetchPage } from '../../core/pagination.js';
import { containsText } from '../../core/text-filters.js';
import type { DbOrTx } from '../../db/client.js';
import { groups, users } from '../../db/schema/index.js';
import type { Group, NewGroup, NewUser, User, UserListQuery } from './schemas.js';

const userColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  groupId: users.groupId,
  groupName: groups.name,
  scopes: groups.scopes,
  disabled: users.disabled,
  hasPassword: sql<boolean>`${users.passwordHash} is not null`,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};

function validateScopes(scopes: string[], path: string[] = ['scopes']): string[] {
  const issues = scopes.flatMap((scope, index) =>
    SCOPE_PATTERN.test(scope)
      ? []
      : [{ path: [...path, index], message: 'must be * or <area>:<permission>' }],
  );
  if (issues.length > 0) throw validationError(issues);
  return [...new Set(scopes)];
}

/** Local user accounts and their groups. Changes drop the principal cache so they take effect at once. */
export class UserService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit' | 'principals'>) {}

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
    if (disabled && 'tokenId' in actor && actor.userId === id) {
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

  async setPassword(actor: AuditActor, id: string, password: string): Promise<User> {
    return this.changeUser(
      actor,
      id,
      'users.user.password_set',
      { passwordHash: await hashPassword(password) },
      {},
    );
  }

  async listGroups(): Promise<Group[]> {
    return this.deps.db
      .select({
        id: groups.id,
        name: groups.name,
        scopes: groups.scopes,
        createdAt: groups.createdAt,
        userCount: sql<number>`(select count(*)::int from users where users.group_id = groups.id)`,
      })
      .from(groups)
      .orderBy(groups.name);
  }

  async createGroup(actor: AuditActor, input: NewGroup): Promise<Group> {
    const name = trimmedName(input.name);
    const scopes = validateScopes(input.scopes);
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
    const scopes = validateScopes(rawScopes);
    const group = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.update(groups).set({ scopes }).where(eq(groups.id, id)).returning();
      if (!row) throw notFound({ groupId: id });
      await this.deps.audit.record(tx, actor, {
        action: 'users.group.scopes_changed',
        targetType: 'group',
        targetId: id,
        metadata: { scopes },
      });
      const [members] = await tx.select({ userCount: count() }).from(users).where(eq(users.groupId, id));
      return { ...row, userCount: members!.userCount };
    });
    this.deps.principals.invalidate();
    return group;
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
    values: Partial<typeof users.$inferInsert>,
    metadata: Record<string, unknown>,
  ): Promise<User> {
    const user = await this.updateUser(actor, id, action, values, metadata);
    this.deps.principals.invalidate();
    return user;
  }

  /** Updates the user and answers its record (joined with its group, new or old) in one statement. */
  private updateUser(
    actor: AuditActor,
    id: string,
    action: AuditAction,
    values: Partial<typeof users.$inferInsert>,
    metadata: Record<string, unknown>,
  ): Promise<User> {
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .from(groups)
        .where(and(eq(users.id, id), eq(groups.id, values.groupId ?? users.groupId)))
        .returning(userColumns);
      if (!row) throw notFound({ userId: id });
      await this.deps.audit.record(tx, actor, { action, targetType: 'user', targetId: id, metadata });
      return row;
    });
  }
}
