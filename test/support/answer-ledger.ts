import type { RouteAnswer } from '../../src/server.js';

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is read as plain JSON
type Json = any;

/** The OpenAPI path of a route pattern: `/api/x/:id` → `/api/x/{id}`, a trailing `/*` → `/{path}`. */
export function documentedPath(route: string): string {
  const path = route.replace(/\/\*$/, '/{path}').replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  return path.length > 1 ? path.replace(/\/$/, '') : path;
}

/**
 * Every status each route of a test gateway answered, checked against the responses its operation
 * declares in the gateway's own /openapi.json: `startTestGateway()` fails its `close()` on a status
 * the document does not declare (or on an answer from a route the document lacks), so every test
 * that drives a gateway also proves that the document says what the API answers.
 */
export class AnswerLedger {
  /** `METHOD route` → the statuses it answered. */
  private readonly answered = new Map<string, { answer: RouteAnswer; statuses: Set<number> }>();

  readonly record = (answer: RouteAnswer): void => {
    const key = `${answer.method} ${answer.route}`;
    const entry = this.answered.get(key) ?? { answer, statuses: new Set<number>() };
    entry.statuses.add(answer.status);
    this.answered.set(key, entry);
  };

  /** Each answer the document does not declare, in words (`POST /api/x/{id} answered 409`). */
  undeclaredIn(document: Json): string[] {
    const problems: string[] = [];
    for (const { answer, statuses } of this.answered.values()) {
      if (answer.hidden) continue;
      const path = documentedPath(answer.route);
      // Fastify answers HEAD with its GET route.
      const method = answer.method === 'HEAD' ? 'get' : answer.method.toLowerCase();
      const operation = document.paths?.[path]?.[method];
      const where = `${method.toUpperCase()} ${path}`;
      if (!operation) {
        problems.push(`${where} answered but is not in /openapi.json`);
        continue;
      }
      for (const status of statuses) {
        // The plain-HTTP to HTTPS redirect answers every operation; the document's description says so once.
        if (status === 308) continue;
        const declared = operation.responses?.[status] ?? operation.responses?.[`${String(status)[0]}XX`];
        if (!declared) problems.push(`${where} answered ${status}, which its responses do not declare`);
      }
    }
    return problems.sort();
  }
}
