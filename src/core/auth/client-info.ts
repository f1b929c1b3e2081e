import type { FastifyRequest } from 'fastify';

/** Who is knocking before anyone is signed in: what sign-in steps record and audit. */
export interface ClientInfo {
  userAgent: string | null;
  clientIp: string;
  requestId: string;
}

export const clientInfoOf = (request: FastifyRequest): ClientInfo => ({
  userAgent: request.headers['user-agent'] ?? null,
  clientIp: request.ip,
  requestId: request.id,
});
