import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { groups, users } from '../../db/schema/index.js';
import { notFound } from '../errors.js';

/** The account a sign-in step is about, as the principal resolver would see it once signed in. */
export interface SignInAccount {
  id: string;
  email: string;
  name: string;
  groupName: string;
  scopes: string[];
  disabled: boolean;
}

/**
 * Reads the account a sign-in continues for (a second step, an enrolment, the login's answer). Core reads
 * the users area's tables here for the same reason the principal resolver does: authenticating is
 * core's, and it must not wait on the module that administers accounts. 404 when the user is gone.
 */
export async function signInAccount(db: DbOrTx, userId: string): Promise<SignInAccount> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      groupName: groups.name,
      scopes: groups.scopes,
      disabled: users.disabled,
    })
    .from(users)
    .innerJoin(groups, eq(groups.id, users.groupId))
    .where(eq(users.id, userId));
  if (!row) throw notFound({ userId });
  return row;
}
