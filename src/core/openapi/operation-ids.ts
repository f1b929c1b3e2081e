/**
 * The `operationId` of every documented operation, derived from its method and path so generated
 * clients get stable, readable names without each route spelling one out:
 *   GET /things → listThings · POST /things → createThing · GET|PATCH|PUT|DELETE /things/{id} →
 *   getThing|updateThing|updateThing|deleteThing · POST /things/{id}/start → startThing ·
 *   PATCH /things/{id}/name → updateThingName · GET /things/{id}/logs → getThingLogs.
 * When two operations would get the same name, each is qualified with the path segment before its
 * noun (`requeueSiemDelivery`, `requeueNotificationDelivery`) until the names differ. A route's own
 * `schema.operationId` wins over the rule, then `READABLE_NAMES` (kept here rather than in the
 * route files, so the names of the whole API read side by side).
 */

/** Where the rule reads badly: `METHOD path` → name (a test checks each still names an operation). */
export const READABLE_NAMES: Record<string, string> = {
  'GET /healthz': 'getHealth',
  'GET /readyz': 'getReadiness',
  'POST /auth/login': 'login',
  'POST /auth/logout': 'logout',
  'GET /auth/me': 'getMe',
  'GET /auth/me/sessions': 'listMySessions',
  'POST /auth/me/sessions/revoke-others': 'revokeOtherSessions',
  'POST /auth/setup': 'setUpConsole',
  'POST /auth/setup/check': 'checkSetupCode',
  'PUT /api/logging/schema-folders/reorder': 'reorderSchemaFolders',
  'PUT /api/logging/environment-folders/reorder': 'reorderEnvironmentFolders',
  'GET /api/logging/environments/{id}/records': 'searchLogRecords',
  'GET /api/logging/environments/{id}/facets': 'getLogFacets',
  'GET /api/logging/environments/{id}/histogram': 'getLogHistogram',
  'GET /api/logging/environments/{id}/tail': 'tailLogRecords',
  'POST /api/logging/ingest': 'ingestLogs',
  'POST /v1/logs': 'ingestOtlpLogs',
  'GET /api/containerhost/nodes/{nodeId}/containers/{containerId}/files': 'listContainerFiles',
  'DELETE /api/containerhost/nodes/{nodeId}/containers/{containerId}/files': 'deleteContainerFile',
  'PUT /api/containerhost/nodes/{nodeId}/containers/{containerId}/files/content': 'writeContainerFile',
  'POST /api/containerhost/nodes/{nodeId}/containers/{containerId}/files/move': 'moveContainerFile',
  'POST /api/containerhost/nodes/{nodeId}/containers/{containerId}/files/mkdir': 'createContainerDirectory',
  'GET /api/containerhost/nodes/{nodeId}/containers/{containerId}/terminal': 'openContainerTerminal',
  'GET /api/containerhost/nodes/{nodeId}/volumes/{name}/files': 'listVolumeFiles',
  'PUT /api/containerhost/nodes/{nodeId}/volumes/{name}/files/write': 'writeVolumeFile',
  'POST /api/containerhost/nodes/{nodeId}/images/prune': 'pruneImages',
  'PUT /api/containerhost/nodes/{nodeId}/registry-credentials/{registry}': 'setRegistryCredential',
  'POST /api/containerhost/nodes/{nodeId}/containers/{containerName}/health-check/test':
    'testContainerHealthCheck',
  'GET /api/containerhost/nodes/{nodeId}/containers/{containerName}/health-check/results':
    'listHealthCheckResults',
  'GET /api/containerhost/health-checks': 'listHealthChecks',
  'POST /api/databases/{id}/keyvalue/command': 'runKeyValueCommand',
  'GET /api/databases/{id}/keyvalue/history': 'getKeyValueHistory',
  'GET /api/audit/events': 'listAuditEvents',
  'GET /api/audit/events/{id}': 'getAuditEvent',
  'GET /api/audit/verify': 'verifyAuditChain',
  'POST /api/ssl-certificates/acme': 'orderAcmeCertificate',
  'POST /api/ssl-certificates/{id}/acme/confirm': 'confirmAcmeOrder',
  'POST /api/ssl-certificates/{id}/acme/renew': 'renewAcmeCertificate',
  'GET /.well-known/infragate-domain/{token}': 'getDomainVerificationToken',
  'GET /api/pages/by-slug/{slug}': 'getPageBySlug',
  'GET /api/pages/{projectId}/deployments/{deploymentId}/files': 'listDeploymentFiles',
  'GET /sites/{slug}/{path}': 'serveSiteFile',
  'POST /api/integrations/repohost/connectors/preview-test': 'testConnectorPreview',
  'GET /api/inference/providers/oauth': 'listOauthSessions',
  'POST /api/inference/providers/oauth/start': 'startOauthSession',
  'GET /api/inference/providers/oauth/{id}': 'getOauthSession',
  'POST /api/inference/providers/oauth/{id}/complete': 'completeOauthSession',
  'POST /api/inference/providers/oauth/{id}/cancel': 'cancelOauthSession',
  'PUT /api/nodes/{id}/files/uploads/{uploadId}/chunks': 'uploadChunk',
  'GET /api/notifications/events': 'listNotificationEvents',
  'GET /api/notifications/alerts': 'listNotificationAlerts',
};

/** A last path segment that is an action on what precedes it (`/containers/{id}/start`). */
const ACTION_VERBS = new Set([
  'cancel',
  'check',
  'complete',
  'confirm',
  'connect',
  'disconnect',
  'download',
  'exec',
  'ingest',
  'kill',
  'login',
  'logout',
  'move',
  'pause',
  'pin',
  'promote',
  'prune',
  'pull',
  'recreate',
  'refresh',
  'renew',
  'reorder',
  'requeue',
  'restart',
  'revoke',
  'start',
  'stop',
  'test',
  'unpause',
  'upload',
  'verify',
  'write',
]);

const ITEM_VERBS: Record<string, string> = {
  get: 'get',
  put: 'update',
  patch: 'update',
  delete: 'delete',
  post: 'create',
};

/** One documented operation to name. */
export interface NamedOperation {
  method: string;
  path: string;
  /** Set when the route declares its own. */
  operationId?: string | undefined;
}

const isParam = (segment: string) => segment.startsWith('{');
const words = (segment: string) => segment.split(/[-_.]/).filter(Boolean);
const pascal = (text: string[]) => text.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');

function singular(segment: string): string {
  if (segment.endsWith('ies')) return `${segment.slice(0, -3)}y`;
  if (segment.endsWith('s') && !segment.endsWith('ss')) return segment.slice(0, -1);
  return segment;
}

interface NamePlan {
  verb: string;
  /** The noun words, most specific last. */
  noun: string[];
  /** Earlier static segments, nearest first, to qualify a name that collides. */
  qualifiers: string[];
}

/** Whether `path` names a collection: it has items below it or is created into. */
function isCollection(path: string, paths: Map<string, Set<string>>): boolean {
  if (paths.get(path)?.has('post')) return true;
  return [...paths.keys()].some((other) => other.startsWith(`${path}/{`));
}

function plan(operation: NamedOperation, paths: Map<string, Set<string>>): NamePlan {
  const segments = operation.path.split('/').filter((segment) => segment && segment !== 'api');
  const statics = segments
    .filter((segment) => !isParam(segment))
    .map((segment) => segment.replace(/^\./, ''));
  const last = segments.at(-1) ?? '';
  const tail = statics.at(-1) ?? 'root';
  const before = statics.slice(0, -1).reverse().map(singular);
  if (isParam(last)) {
    return {
      verb: ITEM_VERBS[operation.method] ?? operation.method,
      noun: [singular(tail)],
      qualifiers: before,
    };
  }
  const [first = '', ...object] = words(tail);
  if (ACTION_VERBS.has(first)) {
    if (object.length > 0) return { verb: first, noun: [object.join('-')], qualifiers: before };
    const [owner = 'root', ...rest] = before;
    return { verb: first, noun: [owner], qualifiers: rest };
  }
  const collection = isCollection(operation.path, paths);
  if (operation.method === 'get' && collection) return { verb: 'list', noun: [tail], qualifiers: before };
  if (operation.method === 'post' && collection)
    return { verb: 'create', noun: [singular(tail)], qualifiers: before };
  // A part or view of what precedes it (`/users/{id}/name`, `/containers/{id}/logs`).
  const [owner, ...rest] = before;
  return {
    verb: ITEM_VERBS[operation.method] ?? operation.method,
    noun: owner ? [owner, tail] : [tail],
    qualifiers: rest,
  };
}

const render = (name: NamePlan, qualified: number) =>
  name.verb +
  pascal(
    [...name.qualifiers.slice(0, qualified).reverse(), ...name.noun].flatMap((segment) => words(segment)),
  );

/** Names every operation; the result is in the order of `operations`. */
export function operationIds(declared: NamedOperation[]): string[] {
  const operations = declared.map((operation) => ({
    ...operation,
    operationId:
      operation.operationId ?? READABLE_NAMES[`${operation.method.toUpperCase()} ${operation.path}`],
  }));
  const paths = new Map<string, Set<string>>();
  for (const { path, method } of operations) paths.set(path, (paths.get(path) ?? new Set()).add(method));
  const plans = operations.map((operation) => plan(operation, paths));
  const depth = plans.map(() => 0);
  const names = () =>
    operations.map((operation, index) => operation.operationId ?? render(plans[index]!, depth[index]!));
  for (;;) {
    const current = names();
    const seen = new Map<string, number[]>();
    current.forEach((name, index) => {
      seen.set(name, [...(seen.get(name) ?? []), index]);
    });
    let qualifiedMore = false;
    for (const indexes of seen.values()) {
      if (indexes.length < 2) continue;
      for (const index of indexes) {
        if (operations[index]!.operationId === undefined && depth[index]! < plans[index]!.qualifiers.length) {
          depth[index] = depth[index]! + 1;
          qualifiedMore = true;
        }
      }
    }
    if (!qualifiedMore) return current;
  }
}
