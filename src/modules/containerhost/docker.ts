import type { Duplex, Readable } from 'node:stream';
import type Docker from 'dockerode';
import { unprocessable } from '../../core/errors.js';
import { translateEngineError } from './docker-errors.js';
import { type Endpoint, publishedHost } from './engine-endpoints.js';
import type {
  ContainerCreateRequest,
  EngineContainer,
  EngineContainerSummary,
  EngineEndpointSettings,
  EngineImage,
  EngineImageSummary,
  EngineNetwork,
  EnginePathStat,
  EnginePort,
  EngineVersion,
  EngineVolume,
  ExecCreation,
  LogSelection,
  NetworkSpec,
  RegistryAuth,
} from './engine-port.js';

/** Whatever listens there answered HTTP, but not as an engine does: a clear 422, never a 500. */
const notAnEngine = (path: string, field: string) =>
  unprocessable(
    'ENGINE_UNREACHABLE',
    `the endpoint answered, but not as a Docker Engine API (its ${path} has no ${field})`,
  );

// The engine port over the Docker Engine API (Docker or Podman), through dockerode: the one place that
// knows the client library and the API's status codes.

/** Seconds an engine waits after SIGTERM when a stop or restart names none. */
const ENGINE_DEFAULT_STOP_SECONDS = 10;

/** The Engine API answers 304 for a start of a running container (and a stop of a stopped one): already done. */
const alreadyDone = (error: unknown) => (error as { statusCode?: number }).statusCode === 304;

/** A call that is refused with 304 answers true (nothing was to be done), one that succeeds false. */
const doneOrAlready = (work: Promise<unknown>) =>
  work.then(
    () => false,
    (error: unknown) => (alreadyDone(error) ? true : Promise.reject(error)),
  );

/** The extra wait of a stop or restart: the engine waits that long before it kills. */
const stopWaitMs = (timeoutSeconds: number | undefined) =>
  (timeoutSeconds ?? ENGINE_DEFAULT_STOP_SECONDS) * 1000;

/**
 * One connection to one node's engine. Every call carries a deadline (the modem's socket timeout and a
 * race against a timer), so an engine that hangs answers 422 instead of holding the request. Streams
 * (logs, stats, pulls, exec sessions) use a second client without the socket timeout: a quiet stream is
 * not a hung one. Their opening is bounded by the deadline; after that they live until they end or the
 * caller's signal aborts them. A failure's 404 names the node and the object asked for.
 */
export class DockerEngine implements EnginePort {
  constructor(
    private readonly docker: Docker,
    private readonly streams: Docker,
    private readonly nodeId: string,
    readonly endpoint: Endpoint,
    readonly timeoutMs: number,
    /** The checked address a remote engine's client connects to (none for a unix socket). */
    readonly address: string | undefined,
  ) {}

  /** A node on a local unix socket is the gateway's own host (see EgressGuard.forOwnHost). */
  get ownHost(): boolean {
    return this.endpoint.kind === 'unix';
  }

  get publishedHost(): string {
    return publishedHost(this.endpoint);
  }

  async version(): Promise<EngineVersion> {
    const answer: Partial<EngineVersion> = await this.call({}, (docker) => docker.version());
    // Whatever listens there answered HTTP, but not as an engine (no version): say so, never a 500.
    if (typeof answer?.Version !== 'string' || typeof answer.ApiVersion !== 'string')
      throw notAnEngine('/version', 'Version');
    return answer as EngineVersion;
  }

  listContainers(filter: { all: boolean; volume?: string }): Promise<EngineContainerSummary[]> {
    const filters =
      filter.volume === undefined ? {} : { filters: JSON.stringify({ volume: [filter.volume] }) };
    return this.call({}, (docker) => docker.listContainers({ all: filter.all, ...filters }));
  }

  inspectContainer(id: string): Promise<EngineContainer> {
    // dockerode's type leaves out fields the Engine API answers (StopSignal).
    return this.container(id, (container) => container.inspect()) as unknown as Promise<EngineContainer>;
  }

  async createContainer(request: ContainerCreateRequest): Promise<{ id: string }> {
    const created = await this.call({ image: request.Image }, (docker) =>
      docker.createContainer(request as Docker.ContainerCreateOptions),
    );
    return { id: created.id };
  }

  async startContainer(id: string): Promise<{ alreadyRunning: boolean }> {
    return { alreadyRunning: await this.container(id, (container) => doneOrAlready(container.start())) };
  }

  async stopContainer(id: string, timeoutSeconds?: number): Promise<{ alreadyStopped: boolean }> {
    const options = timeoutSeconds === undefined ? {} : { t: timeoutSeconds };
    const alreadyStopped = await this.container(
      id,
      (container) => doneOrAlready(container.stop(options)),
      stopWaitMs(timeoutSeconds),
    );
    return { alreadyStopped };
  }

  async restartContainer(id: string, timeoutSeconds?: number): Promise<void> {
    const options = timeoutSeconds === undefined ? {} : { t: timeoutSeconds };
    await this.container(id, (container) => container.restart(options), stopWaitMs(timeoutSeconds));
  }

  async killContainer(id: string, signal?: string): Promise<void> {
    await this.container(id, (container) => container.kill(signal ? { signal } : {}));
  }

  async pauseContainer(id: string): Promise<void> {
    await this.container(id, (container) => container.pause());
  }

  async unpauseContainer(id: string): Promise<void> {
    await this.container(id, (container) => container.unpause());
  }

  async renameContainer(id: string, name: string): Promise<void> {
    await this.container(id, (container) => container.rename({ name }));
  }

  async removeContainer(id: string, options: { force: boolean; removeVolumes?: boolean }): Promise<void> {
    await this.container(id, (container) =>
      container.remove({ force: options.force, v: options.removeVolumes ?? false }),
    );
  }

  containerStats(id: string, signal?: AbortSignal): Promise<Readable> {
    return this.openStream(
      { containerId: id },
      (docker) => docker.getContainer(id).stats({ stream: true }) as unknown as Promise<Readable>,
      signal,
    );
  }

  /** dockerode buffers logs that are not followed; asked directly, the engine streams them either way. */
  containerLogs(id: string, selection: LogSelection, signal?: AbortSignal): Promise<Readable> {
    return this.openStream(
      { containerId: id },
      (docker) =>
        dial<Readable>(docker, {
          path: `/containers/${id}/logs?`,
          method: 'GET',
          options: { ...selection, timestamps: true },
          isStream: true,
          okStatuses: [200],
        }),
      signal,
    );
  }

  /** The engine's HEAD of the archive: the path's description in a header; a 404 is nothing there. */
  statPath(containerId: string, path: string): Promise<EnginePathStat | undefined> {
    return this.call({ containerId }, async (docker) => {
      let response: import('node:http').IncomingMessage;
      try {
        response = (await docker.getContainer(containerId).infoArchive({ path })) as never;
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 404) return undefined;
        throw error;
      }
      response.resume();
      const header = response.headers['x-docker-container-path-stat'];
      if (typeof header !== 'string') throw new Error('the engine did not describe the path');
      return JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as EnginePathStat;
    });
  }

  readArchive(containerId: string, path: string, signal?: AbortSignal): Promise<Readable> {
    return this.openStream(
      { containerId },
      (docker) => docker.getContainer(containerId).getArchive({ path }) as Promise<Readable>,
      signal,
    );
  }

  async writeArchive(containerId: string, path: string, tar: Buffer): Promise<void> {
    await this.container(containerId, (container) => container.putArchive(tar, { path }));
  }

  async createExec(containerId: string, exec: ExecCreation): Promise<string> {
    const created = await this.container(containerId, (container) =>
      container.exec({
        Cmd: exec.cmd,
        AttachStdin: exec.tty,
        AttachStdout: true,
        AttachStderr: true,
        ...(exec.tty ? { Tty: true } : {}),
        ...(exec.env ? { Env: exec.env } : {}),
        ...(exec.workingDir ? { WorkingDir: exec.workingDir } : {}),
        ...(exec.user ? { User: exec.user } : {}),
      }),
    );
    return created.id;
  }

  startExec(execId: string, options: { tty: boolean }, signal?: AbortSignal): Promise<Duplex> {
    return this.openStream(
      { execId },
      (docker) =>
        docker
          .getExec(execId)
          .start({ hijack: true, stdin: options.tty, ...(options.tty ? { Tty: true } : {}) }),
      signal,
    );
  }

  async inspectExec(execId: string): Promise<{ running: boolean; exitCode: number | null }> {
    const info = await this.call({ execId }, (docker) => docker.getExec(execId).inspect());
    return { running: info.Running, exitCode: info.ExitCode ?? null };
  }

  /** Podman answers a resize 201, which dockerode does not expect; the call is made directly. */
  async resizeExec(execId: string, cols: number, rows: number): Promise<void> {
    await this.call({ execId }, (docker) =>
      dial(docker, {
        path: `/exec/${execId}/resize?`,
        method: 'POST',
        options: { h: rows, w: cols },
        okStatuses: [200, 201],
      }),
    );
  }

  listImages(): Promise<EngineImageSummary[]> {
    return this.call({}, (docker) => docker.listImages());
  }

  async inspectImage(reference: string): Promise<EngineImage> {
    const answer: Partial<EngineImage> = await this.call({ imageId: reference }, (docker) =>
      docker.getImage(reference).inspect(),
    );
    if (typeof answer?.Id !== 'string') throw notAnEngine('/images/{name}/json', 'Id');
    return answer as EngineImage;
  }

  async removeImage(id: string, options: { force: boolean }) {
    const report = (await this.call({ imageId: id }, (docker) =>
      docker.getImage(id).remove({ force: options.force }),
    )) as { Untagged?: string; Deleted?: string }[];
    return {
      untagged: report.flatMap((item) => (item.Untagged ? [item.Untagged] : [])),
      deleted: report.flatMap((item) => (item.Deleted ? [item.Deleted] : [])),
    };
  }

  async pruneDanglingImages() {
    const report = await this.call({}, (docker) =>
      docker.pruneImages({ filters: JSON.stringify({ dangling: ['true'] }) }),
    );
    return {
      deleted: (report.ImagesDeleted ?? []).flatMap((item) => (item.Deleted ? [item.Deleted] : [])),
      spaceReclaimed: report.SpaceReclaimed ?? 0,
    };
  }

  pullImage(
    image: { name: string; fromImage: string; tag?: string | undefined },
    auth: RegistryAuth | undefined,
    signal?: AbortSignal,
  ): Promise<Readable> {
    return this.openStream(
      { image: image.name },
      (docker) =>
        docker.createImage(auth ?? {}, {
          fromImage: image.fromImage,
          ...(image.tag ? { tag: image.tag } : {}),
        }) as Promise<Readable>,
      signal,
    );
  }

  listNetworks(): Promise<EngineNetwork[]> {
    return this.call({}, (docker) => docker.listNetworks());
  }

  inspectNetwork(id: string): Promise<EngineNetwork> {
    return this.call({ networkId: id }, (docker) => docker.getNetwork(id).inspect());
  }

  networkExists(name: string): Promise<boolean> {
    return this.exists({ network: name }, (docker) => docker.getNetwork(name).inspect());
  }

  async createNetwork(spec: NetworkSpec): Promise<{ id: string }> {
    const created = await this.call({ network: spec.name }, (docker) =>
      docker.createNetwork({
        Name: spec.name,
        Driver: spec.driver,
        Internal: spec.internal,
        Labels: spec.labels,
        CheckDuplicate: true,
        ...(spec.subnet ? { IPAM: { Driver: 'default', Config: [{ Subnet: spec.subnet }] } } : {}),
      }),
    );
    return { id: created.id };
  }

  async removeNetwork(id: string): Promise<void> {
    await this.call({ networkId: id }, (docker) => docker.getNetwork(id).remove());
  }

  async connectNetwork(networkId: string, containerId: string, endpoint?: EngineEndpointSettings) {
    await this.call({ networkId, containerId }, (docker) =>
      docker.getNetwork(networkId).connect({
        Container: containerId,
        ...(endpoint ? { EndpointConfig: endpoint as Docker.EndpointSettings } : {}),
      }),
    );
  }

  async disconnectNetwork(networkId: string, containerId: string, options: { force: boolean }) {
    await this.call({ networkId, containerId }, (docker) =>
      docker.getNetwork(networkId).disconnect({ Container: containerId, Force: options.force }),
    );
  }

  async listVolumes(): Promise<EngineVolume[]> {
    const answer = await this.call({}, (docker) => docker.listVolumes());
    return answer.Volumes ?? [];
  }

  inspectVolume(name: string): Promise<EngineVolume> {
    return this.call({ volume: name }, (docker) => docker.getVolume(name).inspect());
  }

  volumeExists(name: string): Promise<boolean> {
    return this.exists({ volume: name }, (docker) => docker.getVolume(name).inspect());
  }

  async createVolume(spec: { name: string; driver: string; labels: Record<string, string> }) {
    await this.call({ volume: spec.name }, (docker) =>
      docker.createVolume({ Name: spec.name, Driver: spec.driver, Labels: spec.labels }),
    );
  }

  async removeVolume(name: string): Promise<void> {
    await this.call({ volume: name }, (docker) => docker.getVolume(name).remove());
  }

  withinDeadline<T>(work: Promise<T>, what: Record<string, unknown>): Promise<T> {
    return this.withDeadline({ nodeId: this.nodeId, ...what }, work, this.timeoutMs);
  }

  failure(error: unknown, what: Record<string, unknown>): Error {
    return translateEngineError(error, { nodeId: this.nodeId, ...what });
  }

  /** One action on a container; a 404 names it. */
  private container<T>(id: string, action: (container: Docker.Container) => Promise<T>, extraMs = 0) {
    return this.call({ containerId: id }, (docker) => action(docker.getContainer(id)), extraMs);
  }

  /**
   * Runs `fn` against the engine; engine 404s become NOT_FOUND naming `what`, conflicts 409, unreachable
   * engines and refused operations 422. `extraMs` extends the deadline for calls that wait by design
   * (stop, restart); those go through the client without a socket timeout.
   */
  private call<T>(
    what: Record<string, unknown>,
    fn: (docker: Docker) => Promise<T>,
    extraMs = 0,
  ): Promise<T> {
    return this.withDeadline(
      { nodeId: this.nodeId, ...what },
      fn(extraMs > 0 ? this.streams : this.docker),
      this.timeoutMs + extraMs,
    );
  }

  /** Whether the engine knows an object: its inspect answers (true) or is a 404 (false). */
  private exists(what: Record<string, unknown>, inspect: (docker: Docker) => Promise<unknown>) {
    return this.call(what, (docker) =>
      inspect(docker).then(
        () => true,
        (error) => ((error as { statusCode?: number }).statusCode === 404 ? false : Promise.reject(error)),
      ),
    );
  }

  /**
   * Opens a long-lived engine stream. The deadline covers the opening only (a stream that arrives late is
   * destroyed); aborting `signal` destroys the stream, which is how a client that leaves ends it.
   */
  private async openStream<T extends Readable | Duplex>(
    what: Record<string, unknown>,
    open: (docker: Docker) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    if (signal?.aborted) throw unprocessable('CLIENT_GONE', 'the client left before the stream opened');
    const opening = open(this.streams);
    let stream: T;
    try {
      stream = await this.withDeadline({ nodeId: this.nodeId, ...what }, opening, this.timeoutMs);
    } catch (error) {
      opening.then((late) => late.destroy()).catch(() => {});
      throw error;
    }
    if (signal) {
      const destroy = () => stream.destroy();
      signal.addEventListener('abort', destroy, { once: true });
      stream.once('close', () => signal.removeEventListener('abort', destroy));
      if (signal.aborted) stream.destroy();
    }
    return stream;
  }

  /** Waits for `work` at most `deadlineMs`; the engine's failures are translated as `call` does. */
  private async withDeadline<T>(what: Record<string, unknown>, work: Promise<T>, deadlineMs: number) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            unprocessable('ENGINE_TIMEOUT', `the container engine did not answer within ${deadlineMs} ms`),
          ),
        deadlineMs,
      );
    });
    try {
      return await Promise.race([work, timeout]);
    } catch (error) {
      throw translateEngineError(error, what);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A raw engine request, for what dockerode does not offer as needed (a stream it would buffer, a status it does not expect). */
function dial<T>(
  docker: Docker,
  request: {
    path: string;
    method: 'GET' | 'POST';
    options?: object;
    isStream?: boolean;
    okStatuses: number[];
  },
): Promise<T> {
  const statusCodes: Record<number, true | string> = {
    404: 'not found',
    409: 'conflict',
    500: 'server error',
  };
  for (const status of request.okStatuses) statusCodes[status] = true;
  return new Promise((resolve, reject) =>
    docker.modem.dial(
      {
        path: request.path,
        method: request.method,
        options: request.options ?? {},
        isStream: request.isStream ?? false,
        statusCodes,
      },
      (error: unknown, data: unknown) => (error ? reject(error) : resolve(data as T)),
    ),
  );
}
