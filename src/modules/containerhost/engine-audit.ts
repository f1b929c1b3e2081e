import type { AuditActor } from '../../core/actor.js';
import type { AuditAction } from '../../core/audit-actions.js';
import type { Deps } from '../../core/deps.js';

/** What an engine change is about: `containerhost.<thing>.<verb>`, target type `containerhost_<thing>`. */
export type EngineThing = 'container' | 'network' | 'volume' | 'image' | 'node';

/** The verbs AUDIT_ACTIONS lists for a thing, so a misspelt one fails to compile. */
type EngineVerb<T extends EngineThing, A = AuditAction> = A extends `containerhost.${T}.${infer Verb}`
  ? Verb
  : never;

/**
 * Records a change an engine carried out, after it did. The event has its own transaction: there is no
 * database change beside it.
 */
export function recordEngineChange<T extends EngineThing>(
  deps: Pick<Deps, 'db' | 'audit'>,
  actor: AuditActor,
  thing: T,
  verb: EngineVerb<T>,
  targetId: string,
  metadata: Record<string, unknown>,
): Promise<string> {
  return deps.audit.recordAlone(deps.db, actor, {
    // EngineVerb<T> admits only listed verbs; TypeScript cannot see that through the template.
    action: `containerhost.${thing}.${verb}` as AuditAction,
    targetType: `containerhost_${thing}`,
    targetId,
    metadata,
  });
}
