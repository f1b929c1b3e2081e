import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import type { AuditEntry, AuditRecorder } from './audit-recorder.js';

/** Which access events of a finished request belong in the audit trail, if any. */
function accessEvent(request: FastifyRequest, status: number): AuditEntry | undefined {
  if (!request.actor) return undefined; // anonymous 401s are logged, not audited (no write amplification)
  const scope = request.routeOptions.config?.scope;
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  const metadata = { scope, tokenId: request.actor.tokenId, tokenKind: request.actor.tokenKind, status };
  // A signed-in caller refused for lack of a scope: someone probing beyond their rights.
  if (status === 403)
    return {
      action: 'auth.access.denied',
      targetType: 'route',
      targetId: route,
      outcome: 'failure',
      metadata,
    };
  // Who looked at accounts is itself security-relevant; changes are audited by their services.
  if (scope?.startsWith('admin:') && request.method === 'GET' && status < 400) {
    return { action: 'auth.admin_scope.used', targetType: 'route', targetId: route, metadata };
  }
  return undefined;
}

/** Audits access decisions that no service sees: admin-scope use and refused scopes. */
export function registerAccessAudit(app: FastifyInstance, db: Db, audit: AuditRecorder): void {
  app.addHook('onResponse', (request, reply, done) => {
    const entry = accessEvent(request, reply.statusCode);
    done();
    if (!entry) return;
    // The answer is already sent; the event is written right after it.
    audit
      .recordAlone(db, request.actor, entry)
      .catch((error: unknown) => request.log.error({ err: error }, 'could not audit an access decision'));
  });
}
