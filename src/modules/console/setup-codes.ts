import crypto from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AuditActor } from '../../core/actor.js';
import type { ClientInfo } from '../../core/auth/client-info.js';
import { hashPassword } from '../../core/auth/passwords.js';
import { hashTokenSecret } from '../../core/auth/token-secrets.js';
import { startBrowserSession } from '../../core/auth/tokens.js';
import type { Deps } from '../../core/deps.js';
import { unprocessable } from '../../core/errors.js';
import type { DbOrTx } from '../../db/client.js';
import { consoleSetupCodes, users } from '../../db/schema/index.js';

/** Where the console's setup page lives; the printed link is `<base>/setup?code=<code>`. */
export const SETUP_PAGE_PATH = '/setup';

/**
 * Issues a one-time setup code for `userId`, valid `ttlSeconds`; answers the code (shown once, only
 * its hash is stored). Called in the first-start transaction that creates the admin.
 */
export async function createSetupCode(
  tx: DbOrTx,
  userId: string,
  ttlSeconds: number,
): Promise<{ code: string; expiresAt: Date }> {
  const code = crypto.randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  await tx.insert(consoleSetupCodes).values({ userId, codeHash: hashTokenSecret(code), expiresAt });
  return { code, expiresAt };
}

const REFUSALS = {
  SETUP_CODE_UNKNOWN: 'this setup link is not valid; copy the whole link the gateway printed',
  SETUP_CODE_USED: 'this setup link was used already; sign in with the password set then',
  SETUP_CODE_EXPIRED:
    'this setup link has expired; set a password with the API token instead (PUT /api/admin/users/{id}/password)',
  PASSWORD_ALREADY_SET: 'this account has a password already; sign in with it',
  USER_DISABLED: 'this account is disabled',
} as const;

type Refusal = keyof typeof REFUSALS;

/**
 * The console's first-start setup: a one-time code (from the link printed on the first start) lets
 * the first admin set a password in the browser, and signs them in. A code works once, until it
 * expires, and only while its account has no password.
 */
export class SetupService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'audit' | 'config'>) {}

  /** What the setup page shows before asking for a password; refuses a code that cannot be used. */
  async inspect(code: string, client: ClientInfo): Promise<{ email: string; expiresAt: Date }> {
    const found = await this.find(code);
    const refusal = refusalOf(found);
    if (refusal) throw await this.refuse(refusal, found, client);
    return { email: found!.email, expiresAt: found!.expiresAt };
  }

  /** Sets the password, marks the code used and starts a browser session, in one transaction. */
  async complete(code: string, password: string, client: ClientInfo) {
    const passwordHash = await hashPassword(password);
    const outcome = await this.deps.db.transaction(async (tx) => {
      // One conditional update claims the code, so it works once even when two browsers race for it.
      const [claimed] = await tx
        .update(consoleSetupCodes)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(consoleSetupCodes.codeHash, hashTokenSecret(code)),
            isNull(consoleSetupCodes.usedAt),
            gt(consoleSetupCodes.expiresAt, sql`now()`),
            sql`exists (select 1 from ${users} where ${users.id} = ${consoleSetupCodes.userId}
              and ${users.passwordHash} is null and not ${users.disabled})`,
          ),
        )
        .returning({ userId: consoleSetupCodes.userId });
      if (!claimed) return undefined;
      const [user] = await tx
        .update(users)
        .set({ passwordHash, updatedAt: new Date() })
        .where(eq(users.id, claimed.userId))
        .returning({ id: users.id, email: users.email });
      const actor: AuditActor = { ...client, userId: user!.id, email: user!.email };
      await this.deps.audit.record(tx, actor, {
        action: 'console.setup.completed',
        targetType: 'user',
        targetId: user!.id,
        metadata: { email: user!.email },
      });
      const session = await startBrowserSession(
        tx,
        { audit: this.deps.audit, sessionTtlSeconds: this.deps.config.sessionTtlSeconds },
        user!,
        client,
      );
      return { session, email: user!.email };
    });
    if (outcome) return outcome;
    // Nothing changed: say why, from the state the code is in now.
    const found = await this.find(code);
    throw await this.refuse(refusalOf(found) ?? 'SETUP_CODE_USED', found, client);
  }

  private async find(code: string) {
    const [row] = await this.deps.db
      .select({
        userId: users.id,
        email: users.email,
        expiresAt: consoleSetupCodes.expiresAt,
        usedAt: consoleSetupCodes.usedAt,
        hasPassword: sql<boolean>`${users.passwordHash} is not null`,
        disabled: users.disabled,
      })
      .from(consoleSetupCodes)
      .innerJoin(users, eq(users.id, consoleSetupCodes.userId))
      .where(eq(consoleSetupCodes.codeHash, hashTokenSecret(code)));
    return row;
  }

  /** Records the refused attempt (never the code) and answers the error to throw. */
  private async refuse(refusal: Refusal, found: FoundCode | undefined, client: ClientInfo) {
    await this.deps.audit.recordAlone(
      this.deps.db,
      { ...client, userId: found?.userId ?? null, email: found?.email ?? 'anonymous' },
      {
        action: 'console.setup.refused',
        targetType: 'user',
        targetId: found?.userId ?? null,
        outcome: 'failure',
        metadata: { reason: refusal },
      },
    );
    return unprocessable(refusal, REFUSALS[refusal]);
  }
}

type FoundCode = Awaited<ReturnType<SetupService['find']>> & {};

function refusalOf(found: FoundCode | undefined): Refusal | undefined {
  if (!found) return 'SETUP_CODE_UNKNOWN';
  if (found.usedAt) return 'SETUP_CODE_USED';
  if (found.expiresAt.getTime() <= Date.now()) return 'SETUP_CODE_EXPIRED';
  if (found.disabled) return 'USER_DISABLED';
  if (found.hasPassword) return 'PASSWORD_ALREADY_SET';
  return undefined;
}
