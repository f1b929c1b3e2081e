import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import type { Response } from 'undici';
import type { Deps } from '../../../core/deps.js';
import { type ConsumerKeys, type KeyRefusal, keyAllowsModel } from '../consumer-keys.js';
import type { ModelRoutes, ResolvedTarget } from '../model-routes.js';
import type { Circuits } from './circuit.js';
import {
  bodyProblem,
  type Operation,
  PlaneFault,
  passesThrough,
  type WireProtocol,
  wantsStream,
} from './protocols.js';
import { callerAnswer, callerStream, upstreamRequest } from './translated.js';
import type { UpstreamCaller } from './upstream.js';

/** A target of another protocol than the caller's: what its answer is translated back to. */
interface Translation {
  upstream: WireProtocol;
  caller: WireProtocol;
  publicModel: string;
  includeUsage: boolean;
}

/** A request to the data plane, in plain terms. */
export interface PlaneRequest {
  operation: Operation;
  /** The consumer key as sent (bearer, x-api-key or x-goog-api-key). */
  secret: string | undefined;
  body: unknown;
  /** vendor4 names the model in the path, and streams by method. */
  pathModel?: string;
  streamMethod?: boolean;
  headers: Record<string, string | string[] | undefined>;
  /** The client went away. */
  abort: AbortSignal;
}

/** What the caller gets: the provider's status and body (whole, or a stream relayed as it comes). */
export type PlaneAnswer =
  | { stream: false; status: number; contentType: string; body: string }
  | { stream: true; status: number; contentType: string; body: Readable; protocol: WireProtocol };

const KEY_FAULTS: Record<KeyRefusal, [string, string]> = {
  missing: [
    'missing_api_key',
    'send a consumer key (igk_…) as Authorization: Bearer, x-api-key or x-goog-api-key',
  ],
  unknown: ['invalid_api_key', 'the consumer key is not known'],
  revoked: ['key_revoked', 'the consumer key was revoked'],
  expired: ['key_expired', 'the consumer key expired'],
};

/** Most of a provider's whole (not streamed) answer the plane reads. */
const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/**
 * The data plane: a consumer key, a public model and a body of one protocol in; the answer of the
 * first target that answers out. Targets that fail before their first byte (429, 5xx, no
 * connection, timeout) give way to the next one (failover); a connection that keeps failing is
 * skipped for a cool-down (its circuit).
 */
export class InferencePlane {
  constructor(
    private readonly deps: Pick<Deps, 'log'> & {
      keys: ConsumerKeys;
      routes: ModelRoutes;
      upstream: UpstreamCaller;
      circuits: Circuits;
    },
  ) {}

  /** `GET /v1/models`: the route models the key may use, vendor1's model list. */
  async models(secret: string | undefined) {
    const key = await this.key(secret);
    const models = (await this.deps.routes.routeModels()).filter(({ model }) =>
      keyAllowsModel(key.models, model),
    );
    return {
      object: 'list',
      data: models.map(({ model, createdAt }) => ({
        id: model,
        object: 'model',
        created: Math.floor(createdAt.getTime() / 1000),
        owned_by: 'infragate',
      })),
    };
  }

  async handle(request: PlaneRequest): Promise<PlaneAnswer> {
    const key = await this.key(request.secret);
    const problem = bodyProblem(request.operation, request.body);
    if (problem) throw new PlaneFault('invalid', 'invalid_body', problem);
    const body = request.body as Record<string, unknown>;
    const model = request.operation === 'vendor4-content' ? request.pathModel! : (body.model as string);
    if (!keyAllowsModel(key.models, model))
      throw new PlaneFault('permission', 'model_not_allowed', `this key may not use the model ${model}`);
    const targets = await this.deps.routes.targetsFor(model);
    if (targets.length === 0) throw new PlaneFault('not_found', 'model_not_found', `no model ${model}`);
    const stream = wantsStream(request.operation, body, request.streamMethod === true);
    const reasons: string[] = [];
    let timedOut = 0;
    let refusal: PlaneFault | undefined;
    for (const target of targets) {
      const name = `${target.connection.name}/${target.upstreamModel}`;
      const skipped = this.unusable(request.operation, target);
      if (skipped) {
        reasons.push(`${name}: ${skipped}`);
        continue;
      }
      const upstreamProtocol = this.deps.upstream.protocolOf(target)!;
      let sent: { body: unknown; stream: boolean } = {
        body: request.operation === 'vendor4-content' ? body : { ...body, model: target.upstreamModel },
        stream,
      };
      let translation: Translation | undefined;
      if (!passesThrough(request.operation, upstreamProtocol)) {
        const caller = request.operation as WireProtocol;
        try {
          sent = upstreamRequest(caller, upstreamProtocol, body, target.upstreamModel, stream);
        } catch (error) {
          // Another target may take the request as it is; the refusal stands when none does.
          if (!(error instanceof PlaneFault)) throw error;
          refusal ??= error;
          reasons.push(`${name}: ${error.message}`);
          continue;
        }
        const options = body.stream_options as { include_usage?: unknown } | undefined;
        translation = {
          upstream: upstreamProtocol,
          caller,
          publicModel: model,
          includeUsage: caller === 'vendor1-chat' && options?.include_usage === true,
        };
      }
      const outcome = await this.deps.upstream.call({
        target,
        operation: translation ? upstreamProtocol : request.operation,
        stream: sent.stream,
        body: sent.body,
        callerHeaders: request.headers,
        abort: request.abort,
      });
      if (!outcome.ok) {
        if (outcome.countsAgainstCircuit) this.deps.circuits.failed(target.connection.id, outcome.reason);
        if (outcome.timedOut) timedOut++;
        reasons.push(`${name}: ${outcome.reason}`);
        continue;
      }
      const { response, protocol } = outcome;
      if (response.status === 429 || response.status >= 500) {
        await response.body?.cancel().catch(() => undefined);
        const reason = `answered HTTP ${response.status}`;
        this.deps.circuits.failed(target.connection.id, reason);
        reasons.push(`${name}: ${reason}`);
        continue;
      }
      this.deps.circuits.succeeded(target.connection.id);
      return this.answer(response, protocol, stream, name, translation);
    }
    if (refusal) throw refusal;
    const summary = `no target could answer (${reasons.join('; ')})`;
    if (timedOut === targets.length) throw new PlaneFault('timeout', 'upstream_timeout', summary);
    throw new PlaneFault('unavailable', 'no_target_available', summary);
  }

  private async key(secret: string | undefined) {
    const check = await this.deps.keys.authenticate(secret);
    if (!check.ok) {
      const [code, message] = KEY_FAULTS[check.refusal];
      throw new PlaneFault('auth', code, message);
    }
    return check.key;
  }

  /** Why a target cannot serve this operation now, or undefined. */
  private unusable(operation: Operation, target: ResolvedTarget): string | undefined {
    const protocol = this.deps.upstream.protocolOf(target);
    if (!protocol) return `provider ${target.connection.providerId} is no longer in the catalog`;
    if (operation === 'vendor1-embeddings' && !passesThrough(operation, protocol))
      return `it speaks ${protocol}, which has no embeddings`;
    return this.deps.circuits.skipped(target.connection.id);
  }

  /** The provider's answer as the caller gets it; a 2xx that is not what the protocol sends is a 502. */
  private async answer(
    response: Response,
    protocol: WireProtocol,
    stream: boolean,
    name: string,
    translation?: Translation,
  ): Promise<PlaneAnswer> {
    const contentType = response.headers.get('content-type') ?? '';
    const success = response.status >= 200 && response.status < 300;
    const streamed = stream && success && contentType.startsWith('text/event-stream') && response.body;
    if (streamed && translation) {
      const { upstream, caller, publicModel, includeUsage } = translation;
      return {
        stream: true,
        status: response.status,
        contentType: 'text/event-stream',
        body: callerStream(response, upstream, caller, publicModel, includeUsage),
        protocol: caller,
      };
    }
    if (streamed) {
      return {
        stream: true,
        status: response.status,
        contentType,
        body: Readable.fromWeb(response.body as ReadableStream),
        protocol,
      };
    }
    const text = await readBounded(response);
    if (text === undefined)
      throw new PlaneFault(
        'upstream',
        'upstream_too_large',
        `${name} answered more than ${MAX_ANSWER_BYTES} bytes`,
      );
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new PlaneFault(
        'upstream',
        'upstream_invalid_answer',
        `${name} answered HTTP ${response.status} with a body that is not JSON (${contentType || 'no content type'})`,
      );
    }
    if (success && stream)
      throw new PlaneFault(
        'upstream',
        'upstream_invalid_answer',
        `${name} answered JSON where a stream was asked for`,
      );
    if (!translation)
      return { stream: false, status: response.status, contentType: 'application/json', body: text };
    if (!success) throw upstreamRefusal(response.status, name, text);
    const { upstream, caller, publicModel } = translation;
    return {
      stream: false,
      status: response.status,
      contentType: 'application/json',
      body: callerAnswer(upstream, caller, parsed, publicModel, name),
    };
  }
}

async function readBounded(response: Response): Promise<string | undefined> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await response.body.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A translated target's refusal (a 4xx in its own protocol's shape) in the caller's terms: what the
 * caller can fix stays a 4xx, a refusal of the connection's credential is the gateway's problem (502).
 */
function upstreamRefusal(status: number, name: string, text: string): PlaneFault {
  const message = `${name} answered HTTP ${status}: ${text.slice(0, 500)}`;
  if (status === 400 || status === 422) return new PlaneFault('invalid', 'upstream_refused', message);
  if (status === 404) return new PlaneFault('not_found', 'upstream_refused', message);
  if (status === 413) return new PlaneFault('too_large', 'upstream_refused', message);
  return new PlaneFault('upstream', 'upstream_refused', message);
}
