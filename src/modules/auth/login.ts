import { and, eq, isNotNull } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import { signInAccount } from '../../core/auth/accounts.js';
import type { ClientInfo } from '../../core/auth/client-info.js';
import { verifyPassword } from '../../core/auth/passwords.js';
import { startBrowserSession } from '../../core/auth/tokens.js';
import type { Deps } from '../../core/deps.js';
import { invalidField, unauthorized, unprocessable } from '../../core/errors.js';
import { groups, type LoginChallengeKind, users, userTotp } from '../../db/schema/index.js';
import type { LoginChallenges } from './login-challenges.js';
import type { LoginThrottle } from './login-throttle.js';
import type { Credentials, LoginAnswer, LoginStep, SecondStep, TotpEnrolment } from './schemas.js';
import type { TotpService } from './totp.js';

export interface LoginDeps extends Pick<Deps, 'db' | 'audit' | 'config'> {
  throttle: LoginThrottle;
  challenges: LoginChallenges;
  totp: TotpService;
}

const auditActorOf = (user: { id: string; email: string }, client: ClientInfo): AuditActor => ({
  userId: user.id,
  email: user.email,
  requestId: client.requestId,
  clientIp: client.clientIp,
});

/**
 * Signing in with a password: the password step, and for accounts with a second factor (or whose
 * group requires one) the TOTP step that follows, which may enrol the authenticator on the way.
 * Every failure of either step counts towards the login throttle.
 */
export class LoginService {
  constructor(private readonly deps: LoginDeps) {}

  /** Email + password → a browser session, or a challenge for the second step. Failures look alike. */
  async login({ email, password }: Credentials, client: ClientInfo): Promise<LoginStep> {
    const normalized = email.trim().toLowerCase();
    const [user] = await this.deps.db
      .select({
        id: users.id,
        email: users.email,
        passwordHash: users.passwordHash,
        disabled: users.disabled,
        requireMfa: groups.requireMfa,
        totpEnabled: isNotNull(userTotp.enabledAt),
      })
      .from(users)
      .innerJoin(groups, eq(groups.id, users.groupId))
      .leftJoin(userTotp, and(eq(userTotp.userId, users.id), isNotNull(userTotp.enabledAt)))
      .where(eq(users.email, normalized));
    const attempt = { email: normalized, userId: user?.id ?? null, client };
    const accepted = await this.deps.throttle.checkSecret(attempt, {}, async () => {
      const passwordOk = await verifyPassword(password, user?.passwordHash);
      return user && passwordOk && !user.disabled ? user : undefined;
    });
    if (!accepted) throw unauthorized();
    const kind: LoginChallengeKind | undefined = accepted.totpEnabled
      ? 'totp'
      : accepted.requireMfa
        ? 'enrol'
        : undefined;
    if (kind) {
      const challenge = await this.deps.db.transaction(async (tx) => {
        const issued = await this.deps.challenges.issue(tx, accepted.id, kind);
        await this.deps.audit.record(tx, auditActorOf(accepted, client), {
          action: 'auth.login.challenged',
          targetType: 'user',
          targetId: accepted.id,
          metadata: { secondStep: kind },
        });
        return issued;
      });
      return kind === 'totp'
        ? { mfaRequired: true, ...challenge }
        : { mfaEnrollmentRequired: true, ...challenge };
    }
    const session = await this.deps.db.transaction((tx) =>
      startBrowserSession(tx, this.sessionDeps(), accepted, client),
    );
    return this.answer(session, accepted.id);
  }

  /** The enrolment a login must make first (challenge of kind `enrol`): a new secret to scan. */
  async enrolDuringLogin(challengeToken: string, client: ClientInfo): Promise<TotpEnrolment> {
    const challenge = await this.deps.challenges.find(challengeToken);
    if (challenge.kind !== 'enrol')
      throw unprocessable('ENROLMENT_NOT_EXPECTED', 'this sign-in asks for the code of your authenticator');
    const user = await signInAccount(this.deps.db, challenge.userId);
    return this.deps.totp.startEnrolment(auditActorOf(user, client), user);
  }

  /**
   * The second step: a code (or a recovery code) completes the login with a session; during a
   * required enrolment the first code turns TOTP on and the answer carries the recovery codes.
   */
  async completeSecondStep(step: SecondStep, client: ClientInfo): Promise<LoginAnswer> {
    if ((step.code === undefined) === (step.recoveryCode === undefined))
      throw invalidField(['code'], 'send either code or recoveryCode');
    const challenge = await this.deps.challenges.find(step.challengeToken);
    const user = await signInAccount(this.deps.db, challenge.userId);
    if (challenge.kind === 'enrol' && step.recoveryCode !== undefined)
      throw invalidField(['recoveryCode'], 'recovery codes come with the enrolment; send the code instead');
    const attempt = { email: user.email, userId: user.id, client };
    const actor = auditActorOf(user, client);
    const outcome = await this.deps.throttle.checkSecret(attempt, { step: 'totp' }, async () => {
      if (user.disabled) return undefined;
      return this.deps.db.transaction(async (tx) => {
        let recoveryCodes: string[] | undefined;
        let factor: string | undefined;
        if (challenge.kind === 'enrol') {
          recoveryCodes = await this.deps.totp.enable(tx, actor, user.id, step.code!);
          factor = recoveryCodes && 'totp';
        } else {
          factor = await this.deps.totp.verify(tx, user.id, step);
          if (factor === 'recovery_code')
            await this.deps.audit.record(tx, actor, {
              action: 'auth.totp.recovery_code_used',
              targetType: 'user',
              targetId: user.id,
            });
        }
        if (!factor) return undefined;
        await this.deps.challenges.consume(tx, challenge);
        const session = await startBrowserSession(tx, this.sessionDeps(), user, client, {
          secondFactor: factor,
        });
        return { session, recoveryCodes };
      });
    });
    if (!outcome) throw unauthorized();
    const answer = await this.answer(outcome.session, user.id);
    return outcome.recoveryCodes ? { ...answer, recoveryCodes: outcome.recoveryCodes } : answer;
  }

  private sessionDeps() {
    return { audit: this.deps.audit, sessionTtlSeconds: this.deps.config.sessionTtlSeconds };
  }

  private async answer(
    session: { token: string; csrfToken: string; expiresAt: Date },
    userId: string,
  ): Promise<LoginAnswer> {
    const { id, email, name, groupName, scopes } = await signInAccount(this.deps.db, userId);
    return {
      token: session.token,
      csrfToken: session.csrfToken,
      expiresAt: session.expiresAt,
      user: { id, email, name, groupName, scopes },
    };
  }
}
