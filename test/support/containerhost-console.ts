import { expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { type PodmanOptions, type PodmanPeer, startPodman } from '../services/podman.js';
import { type ConsoleHarness, type ConsolePage, type ConsoleUser, startConsole } from './console.js';

/** A console with a Podman engine registered as node `podman`, and a user who may manage it. */
export interface ContainerConsole {
  harness: ConsoleHarness;
  podman: PodmanPeer;
  manager: ConsoleUser;
  nodeId: string;
}

export async function startContainerConsole(
  options: { gateway?: Partial<Config>; podman?: PodmanOptions } = {},
): Promise<ContainerConsole> {
  const [harness, podman] = await Promise.all([startConsole(options.gateway), startPodman(options.podman)]);
  const manager = await harness.createUser(['containerhost:manage']);
  const node = await harness.gateway.call('POST', '/api/containerhost/nodes', {
    // Volume files go through a helper container of the image the engine has already.
    body: { name: 'podman', endpoint: podman.endpoint, helperImage: podman.image },
  });
  expect(node.status).toBe(201);
  return { harness, podman, manager, nodeId: node.body.data.id };
}

/** Opens `path` signed in as `user` and waits for the page's heading. */
export async function openSignedIn(
  harness: ConsoleHarness,
  user: ConsoleUser,
  path: string,
  viewport?: { width: number; height: number },
): Promise<ConsolePage> {
  const opened = await harness.openSignedIn(user, path, viewport);
  await opened.page.getByRole('heading', { level: 1 }).waitFor();
  return opened;
}
