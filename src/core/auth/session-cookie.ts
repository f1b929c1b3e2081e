import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE } from './authenticate.js';

/** Hands a new browser session to the browser as an HttpOnly cookie (login and console setup). */
export function setSessionCookie(
  reply: FastifyReply,
  session: { token: string; expiresAt: Date | null },
  secure: boolean,
): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    ...(session.expiresAt ? { expires: session.expiresAt } : {}),
  });
}
