import type { Readable } from 'node:stream';
import type { Deps } from '../../core/deps.js';
import { findEgressDenial } from '../../core/egress-guard.js';
import { type AppError, invalidField, notFound, unprocessable } from '../../core/errors.js';
import type { RegistryAuth } from './engine-port.js';
import { type EnginePort, egressFor } from './engine-port.js';
import { type ImageReference, parseImageReference } from './image-references.js';
import type { RegistryCredentialService } from './registry-credentials.js';
import { serverAddress } from './registry-credentials.js';
import type { PullProgress } from './schemas/images.js';
import type { RegistryLogin } from './schemas/registry-credentials.js';
import { JsonLines } from './stream-frames.js';

/** Where the credentials of a pull came from (never what they are). */
export type CredentialSource = 'request' | 'stored' | 'none';

/** A pull the engine has accepted: its progress as it comes; the iteration throws when the pull fails. */
export interface PullSession {
  reference: ImageReference;
  credentials: CredentialSource;
  progress: AsyncIterable<PullProgress>;
}

interface EngineMessage {
  id?: string;
  status?: string;
  error?: string;
  errorDetail?: { message?: string };
  progressDetail?: { current?: number; total?: number };
}

/** A failure the engine reports inside the pull stream (the HTTP status was long sent as 200). */
function pullFailure(message: string, image: string): AppError {
  if (/manifest unknown|name unknown|not found|does not exist|no such/i.test(message))
    return notFound({ image, engineMessage: message });
  if (/unauthorized|authentication required|denied|incorrect username or password/i.test(message))
    return unprocessable('REGISTRY_AUTH_FAILED', message, { image });
  return unprocessable('PULL_FAILED', message, { image });
}

/**
 * Pulls images onto a node. The registry's host is checked against the egress policy first (the engine
 * connects to it at the gateway's request; for a node on the gateway's own host loopback is allowed,
 * see EgressGuard.forOwnHost), then credentials are chosen: the request's, else those stored for the
 * node and registry, else none.
 */
export class ImagePuller {
  constructor(
    private readonly deps: Pick<Deps, 'egress'> & { registryCredentials: RegistryCredentialService },
  ) {}

  /** Parses a reference, or answers 400 naming `field`. */
  reference(image: string, field = 'image'): ImageReference {
    const parsed = parseImageReference(image);
    if ('error' in parsed) throw invalidField([field], parsed.error);
    return parsed;
  }

  async open(
    engine: EnginePort,
    nodeId: string,
    reference: ImageReference,
    login: RegistryLogin | undefined,
    signal?: AbortSignal,
  ): Promise<PullSession> {
    await this.checkRegistry(engine, reference);
    const stored = login
      ? undefined
      : await this.deps.registryCredentials.authFor(nodeId, reference.registry);
    const auth: RegistryAuth | undefined = login
      ? { ...login, serveraddress: serverAddress(reference.registry) }
      : stored;
    const image = reference.name;
    const stream = await engine.pullImage(reference, auth, signal);
    return {
      reference,
      credentials: login ? 'request' : stored ? 'stored' : 'none',
      progress: progressOf(engine, stream, image),
    };
  }

  /** Runs a pull to its end (for callers that need the image, not the progress). */
  async pull(engine: EnginePort, nodeId: string, reference: ImageReference): Promise<void> {
    const session = await this.open(engine, nodeId, reference, undefined);
    for await (const _ of session.progress) {
      // Only the end matters here.
    }
  }

  private async checkRegistry(engine: EnginePort, reference: ImageReference): Promise<void> {
    try {
      await egressFor(this.deps.egress, engine).resolve(reference.host);
    } catch (error) {
      const denial = findEgressDenial(error);
      if (denial)
        throw unprocessable('EGRESS_DENIED', denial.message, {
          rule: denial.rule,
          registry: reference.registry,
        });
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      throw unprocessable(
        'REGISTRY_UNREACHABLE',
        `the gateway could not resolve the registry host ${reference.host} (${code}), so it cannot check it against INFRAGATE_EGRESS`,
        { registry: reference.registry, errno: code },
      );
    }
  }
}

async function* progressOf(
  engine: EnginePort,
  stream: Readable,
  image: string,
): AsyncGenerator<PullProgress> {
  const lines = new JsonLines();
  const handle = function* (messages: unknown[]) {
    for (const raw of messages) {
      const message = raw as EngineMessage & { text?: string };
      const failure = message.errorDetail?.message ?? message.error;
      if (failure) throw pullFailure(failure, image);
      yield {
        layer: message.id ?? null,
        status: message.status ?? message.text ?? '',
        current: message.progressDetail?.current ?? null,
        total: message.progressDetail?.total ?? null,
      };
    }
  };
  try {
    for await (const chunk of stream) yield* handle(lines.push(chunk as Buffer));
    yield* handle(lines.flush());
  } catch (error) {
    throw engine.failure(error, { image });
  } finally {
    stream.destroy();
  }
}
