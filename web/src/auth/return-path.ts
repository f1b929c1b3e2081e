/**
 * Where sign-in sends the user afterwards: the page they were on, carried in `?next=`. Only a path
 * of this console is accepted, never another origin (`//evil.example`, `https://…`).
 */
export function safeReturnPath(next: string | null | undefined): string {
  const local = next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\');
  return local ? next! : '/';
}

/** Why the user is on the sign-in page, said there in words. */
export const SIGN_IN_REASONS = {
  expired: 'Your session has ended. Sign in again to continue.',
  'signed-out': 'You are signed out.',
} as const;

export type SignInReason = keyof typeof SIGN_IN_REASONS;

/** `/signin?next=<page>&reason=<why>`: how the console sends a user to sign in and back. */
export function signInPath(from: string, reason?: SignInReason): string {
  const query = new URLSearchParams();
  if (from !== '/') query.set('next', from);
  if (reason) query.set('reason', reason);
  const search = query.toString();
  return search ? `/signin?${search}` : '/signin';
}
