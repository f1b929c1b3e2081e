import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import type { AuditEntry, AuditRecorder } from './audit-recorder.js';
import { hiddenResourceOf } from './auth/authenticate.js';

/** Which access events of a finished request belong in the audit trail, if any. */
function accessEvent(request: FastifyRequest, status: number): AuditEntry | undefined {
  if (!request.actor) return undefined; // anonymous 401s are logged, not audited (no write amplification)
  const scope = request.routeOptions.config?.scope;
  // A signed-in caller refused for lack of a scope: someone probing beyond their rights. A resource
  // outside the caller's resource scopes answers 404 (so its existence does not leak) but is a refusal.
  const hiddenResource = hiddenResourceOf(request);
  const denied = status === 403 || hiddenResource !== undefined;
  // Who looked at accounts is itself security-relevant; changes are audited by their services.
  const adminRead = scope?.startsWith('admin:') && request.method === 'GET' && status < 400;
  if (!denied && !adminRead) return undefined; // the common case builds nothing
  return {
    action: denied ? 'auth.access.denied' : 'auth.admin_scope.used',
    targetType: 'route',
    targetId: `${request.method} ${request.routeOptions.url ?? request.url}`,
    outcome: denied ? 'failure' : 'success',
    metadata: {
      scope,
      ...(hiddenResource !== undefined ? { resourceId: hiddenResource } : {}),
      tokenId: request.actor.tokenId,
      tokenKind: request.actor.tokenKind,
      status,
    },
  };
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
