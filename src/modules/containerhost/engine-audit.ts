import type { AuditActor } from '../../core/actor.js';
import type { Deps } from '../../core/deps.js';

/** What an engine change is about: `containerhost.<thing>.<verb>`, target type `containerhost_<thing>`. */
export type EngineThing = 'container' | 'network' | 'volume' | 'image' | 'node';

/**
 * Records a change an engine carried out, after it did. The event has its own transaction: there is no
 * database change beside it.
 */
export function recordEngineChange(
  deps: Pick<Deps, 'db' | 'audit'>,
  actor: AuditActor,
  thing: EngineThing,
  verb: string,
  targetId: string,
  metadata: Record<string, unknown>,
): Promise<string> {
  return deps.audit.recordAlone(deps.db, actor, {
    action: `containerhost.${thing}.${verb}`,
    targetType: `containerhost_${thing}`,
    targetId,
    metadata,
  });
}
