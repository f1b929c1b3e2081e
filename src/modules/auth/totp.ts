import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Actor, AuditActor } from '../../core/actor.js';
import type { ClientInfo } from '../../core/auth/client-info.js';
import { verifyPassword } from '../../core/auth/passwords.js';
import type { Deps } from '../../core/deps.js';
import { conflict, invalidField, unprocessable } from '../../core/errors.js';
import type { DbOrTx } from '../../db/client.js';
import { groups, recoveryCodes, users, userTotp } from '../../db/schema/index.js';
import type { LoginThrottle } from './login-throttle.js';
import type { TotpEnrolment, TotpRemoval, TotpStatus } from './schemas.js';
import { acceptedStep, newRecoveryCodes, newTotpSecret, otpauthUrl, recoveryCodeHash } from './totp-codes.js';

const SEALED_IN = 'user_totp.secret';

/** Which second factor a login step used. */
export type SecondFactor = 'totp' | 'recovery_code';

const notEnabled = () => conflict('TOTP_NOT_ENABLED', { explanation: 'two-factor sign-in is not on' });

/**
 * A user's TOTP second factor: enrolment (a sealed secret, turned on by its first code, with ten
 * hashed one-time recovery codes), the check of a code (never the same time step twice) or of a
 * recovery code (used up), and turning it off.
 */
export class TotpService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit' | 'secrets'> & { throttle: LoginThrottle }) {}

  async status(userId: string): Promise<TotpStatus> {
    const [row] = await this.deps.db
      .select({
        enabledAt: userTotp.enabledAt,
        pending: sql<boolean>`${userTotp.userId} is not null and ${userTotp.enabledAt} is null`,
        required: groups.requireMfa,
      })
      .from(users)
      .innerJoin(groups, eq(groups.id, users.groupId))
      .leftJoin(userTotp, eq(userTotp.userId, users.id))
      .where(eq(users.id, userId));
    const [left] = await this.deps.db
      .select({ value: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    const enabledAt = row?.enabledAt ?? null;
    return {
      enabled: enabledAt !== null,
      enabledAt,
      pending: row?.pending ?? false,
      recoveryCodesLeft: enabledAt ? (left?.value ?? 0) : 0,
      required: row?.required ?? false,
    };
  }

  /** A new secret waiting for its first code (it replaces one that waited); 409 when TOTP is on already. */
  async startEnrolment(actor: AuditActor, user: { id: string; email: string }): Promise<TotpEnrolment> {
    const secret = newTotpSecret();
    const secretSealed = this.deps.secrets.seal(secret, SEALED_IN);
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(userTotp)
        .values({ userId: user.id, secretSealed })
        .onConflictDoUpdate({
          target: userTotp.userId,
          set: { secretSealed, lastUsedStep: null },
          setWhere: isNull(userTotp.enabledAt),
        })
        .returning({ userId: userTotp.userId });
      if (!row)
        throw conflict('TOTP_ALREADY_ENABLED', {
          explanation: 'two-factor sign-in is on already; turn it off first to enrol another authenticator',
        });
      await this.deps.audit.record(tx, actor, {
        action: 'auth.totp.enrolment_started',
        targetType: 'user',
        targetId: user.id,
      });
    });
    return { secret, otpauthUrl: otpauthUrl(secret, user.email) };
  }

  /**
   * Turns on the enrolment waiting for `code` and answers its ten recovery codes (shown once), or
   * undefined when the code is wrong. 409 TOTP_NOT_STARTED when no enrolment waits.
   */
  async enable(tx: DbOrTx, actor: AuditActor, userId: string, code: string): Promise<string[] | undefined> {
    const [row] = await tx.select().from(userTotp).where(eq(userTotp.userId, userId));
    if (row?.enabledAt) throw conflict('TOTP_ALREADY_ENABLED');
    if (!row)
      throw conflict('TOTP_NOT_STARTED', { explanation: 'start an enrolment first (POST /auth/me/totp)' });
    const step = await acceptedStep(this.deps.secrets.open(row.secretSealed, SEALED_IN), code, null);
    if (step === undefined) return undefined;
    const [enabled] = await tx
      .update(userTotp)
      .set({ enabledAt: sql`now()`, lastUsedStep: step })
      .where(and(eq(userTotp.userId, userId), isNull(userTotp.enabledAt)))
      .returning({ userId: userTotp.userId });
    if (!enabled) throw conflict('TOTP_ALREADY_ENABLED');
    const codes = newRecoveryCodes();
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(codes.map((one) => ({ userId, codeHash: recoveryCodeHash(one) })));
    await this.deps.audit.record(tx, actor, {
      action: 'auth.totp.enabled',
      targetType: 'user',
      targetId: userId,
    });
    return codes;
  }

  /** The caller's own confirmation: a wrong code is a 400 on `code`. */
  async confirm(actor: Actor, code: string): Promise<string[]> {
    const codes = await this.deps.db.transaction((tx) => this.enable(tx, actor, actor.userId, code));
    if (!codes) throw invalidField(['code'], 'is not the current code of the authenticator');
    return codes;
  }

  /**
   * Checks a login's second factor and uses it up: a code whose time step is newer than the last one
   * accepted, or an unused recovery code. Undefined when it does not fit or TOTP is not on.
   */
  async verify(
    tx: DbOrTx,
    userId: string,
    proof: { code?: string; recoveryCode?: string },
  ): Promise<SecondFactor | undefined> {
    const [row] = await tx
      .select()
      .from(userTotp)
      .where(and(eq(userTotp.userId, userId), isNotNull(userTotp.enabledAt)));
    if (!row) return undefined;
    if (proof.code !== undefined) {
      const secret = this.deps.secrets.open(row.secretSealed, SEALED_IN);
      const step = await acceptedStep(secret, proof.code, row.lastUsedStep);
      if (step === undefined) return undefined;
      // The conditional update decides, so two requests racing with one code cannot both pass.
      const [accepted] = await tx
        .update(userTotp)
        .set({ lastUsedStep: step })
        .where(
          and(
            eq(userTotp.userId, userId),
            or(isNull(userTotp.lastUsedStep), lt(userTotp.lastUsedStep, step)),
          ),
        )
        .returning({ userId: userTotp.userId });
      return accepted ? 'totp' : undefined;
    }
    if (proof.recoveryCode === undefined) return undefined;
    const [used] = await tx
      .update(recoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, recoveryCodeHash(proof.recoveryCode)),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    return used ? 'recovery_code' : undefined;
  }

  /**
   * Turns TOTP off for the caller, proven with a current code or the password (a wrong one counts as
   * a failed login); an enrolment that never started needs no proof. 422 while the group requires it.
   */
  async disable(actor: Actor, proof: TotpRemoval, client: ClientInfo): Promise<void> {
    const status = await this.status(actor.userId);
    if (!status.enabled && !status.pending) throw notEnabled();
    if (status.enabled) {
      if (status.required)
        throw unprocessable(
          'TOTP_REQUIRED_BY_GROUP',
          'your group requires two-factor sign-in; an administrator can reset your enrolment instead',
        );
      await this.checkProof(actor, proof, client);
    }
    await this.deps.db.transaction(async (tx) => {
      await removeTotp(tx, actor.userId);
      await this.deps.audit.record(tx, actor, {
        action: 'auth.totp.disabled',
        targetType: 'user',
        targetId: actor.userId,
      });
    });
  }

  private async checkProof(actor: Actor, proof: TotpRemoval, client: ClientInfo): Promise<void> {
    if ((proof.code === undefined) === (proof.password === undefined))
      throw invalidField(['code'], 'send either the current code or your password');
    const attempt = { email: actor.email, userId: actor.userId, client };
    const proven = await this.deps.throttle.checkSecret(attempt, { step: 'totp_removal' }, async () => {
      if (proof.code !== undefined) {
        const factor = await this.deps.db.transaction((tx) =>
          this.verify(tx, actor.userId, { code: proof.code }),
        );
        return factor === 'totp' || undefined;
      }
      const [user] = await this.deps.db
        .select({ passwordHash: users.passwordHash })
        .from(users)
        .where(eq(users.id, actor.userId));
      return (await verifyPassword(proof.password!, user?.passwordHash)) || undefined;
    });
    if (proven) return;
    const field = proof.code !== undefined ? 'code' : 'password';
    throw invalidField(
      [field],
      proof.code !== undefined ? 'is not the current code' : 'is not your password',
    );
  }
}

/** Deletes a user's TOTP secret and recovery codes; answers whether there was an enrolment. */
export async function removeTotp(tx: DbOrTx, userId: string): Promise<boolean> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  const removed = await tx
    .delete(userTotp)
    .where(eq(userTotp.userId, userId))
    .returning({ userId: userTotp.userId });
  return removed.length > 0;
}
