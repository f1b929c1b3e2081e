import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  execIn,
  podmanNodeFor,
  podmanSkipReason,
  podmanSuite,
  registrySkipReason,
} from '../containerhost/helpers.js';
import { type ApiCli, apiCli, runCli } from '../support/cli.js';
import { eventually } from '../support/eventually.js';

// The container actions of the CLI (lifecycle, create, logs, exec, image pull) through a real
// gateway against a real engine (Podman), checked through the API and the engine.
const suite = podmanSuite();
const { run, names } = suite;
const host = ['--host', 'podman'];
const label = { 'io.infragate.test': run };

describe.skipIf(Boolean(podmanSkipReason))('infragate containers and images: actions against Podman', () => {
  const node = podmanNodeFor(suite, {}, { registry: !registrySkipReason });
  let cli: ApiCli;
  const state = async (container: string) =>
    (await node.gateway.call('GET', `${node.base()}/containers/${container}`)).body.data.state;
  /** A container of the test image running `script` under sh, started, with the suite's label. */
  const shell = async (name: string, script: string) => {
    const container = await node.podman.docker.createContainer({
      name,
      Image: node.podman.image,
      Cmd: ['sh', '-c', script],
      Labels: label,
    });
    await container.start();
    return container;
  };

  beforeAll(async () => {
    cli = apiCli(await node.gateway.listen(), node.gateway.adminToken);
  });

  afterAll(async () => {
    await node.podman?.docker
      .getContainer(`ig-${run}-created`)
      .remove({ force: true })
      .catch(() => {});
  });

  it('stops and starts a container', async () => {
    expect((await cli.run(['containers', 'stop', names.stopper, ...host, '--timeout', '0'])).code).toBe(0);
    expect(await state(names.stopper)).toMatchObject({ running: false });
    const started = await cli.run(['containers', 'start', names.stopper, ...host]);
    expect(started.code).toBe(0);
    expect(await state(names.stopper)).toMatchObject({ running: true });
  });

  it('pauses and unpauses a container', async () => {
    expect((await cli.run(['containers', 'pause', names.stopper, ...host])).code).toBe(0);
    expect(await state(names.stopper)).toMatchObject({ paused: true });
    expect((await cli.run(['containers', 'unpause', names.stopper, ...host])).code).toBe(0);
    expect(await state(names.stopper)).toMatchObject({ paused: false });
  });

  it("prints the API's error message and exits 1 when the action is refused", async () => {
    const result = await cli.run(['containers', 'unpause', names.web, ...host]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^infragate: 409 /);
  });

  it('creates a container with environment and a command, and removes it with --force', async () => {
    const name = `ig-${run}-created`;
    const created = await cli.json([
      'containers',
      'create',
      name,
      node.podman.image,
      ...host,
      '--env',
      'GREETING=hello',
      '--start',
      '--',
      'sleep',
      '3600',
    ]);
    expect(created).toMatchObject({ name, state: { running: true } });
    expect((await execIn(node.podman.docker, name, ['sh', '-c', 'echo $GREETING'])).output).toBe('hello\n');
    expect((await cli.run(['containers', 'rm', name, ...host])).code).toBe(1);
    expect((await cli.run(['containers', 'rm', name, ...host, '--force'])).code).toBe(0);
    expect((await node.gateway.call('GET', `${node.base()}/containers/${name}`)).status).toBe(404);
  });

  it("prints a container's stdout lines on stdout and its stderr lines on stderr", async () => {
    const name = `ig-${run}-echo`;
    await (await shell(name, 'echo one; echo two >&2; echo three')).wait();
    const result = await cli.run(['containers', 'logs', name, ...host]);
    expect(result).toMatchObject({ code: 0, stdout: 'one\nthree\n', stderr: 'two\n' });
  });

  it('prints the lines as JSON with --json, and only the last ones with --tail', async () => {
    const lines = await cli.json(['containers', 'logs', `ig-${run}-echo`, ...host, '--tail', '1', '--json']);
    expect(lines.data).toEqual([
      { stream: expect.stringMatching(/^std(out|err)$/), timestamp: null, line: expect.any(String) },
    ]);
  });

  it('follows the logs: prints a line written after it started and ends when the container stops', async () => {
    const name = `ig-${run}-follow`;
    await shell(name, 'echo early; exec sleep 3600');
    const follow = await cli.start(['containers', 'logs', name, ...host, '--follow']);
    await eventually(() => follow.stdout().includes('early\n'), 'the early line');
    // Written to the output of the container's main process, as if it had printed it.
    await execIn(node.podman.docker, name, ['sh', '-c', 'echo late > /proc/1/fd/1']);
    await eventually(() => follow.stdout().includes('late\n'), 'the late line');
    await node.podman.docker.getContainer(name).stop({ t: 0 });
    expect(await follow.exited).toBe(0);
    expect(follow.stdout()).toBe('early\nlate\n');
    expect(follow.stderr()).toBe('');
  });

  it('runs a command in a container and prints what it wrote', async () => {
    const result = await cli.run(['containers', 'exec', names.web, ...host, '--', 'echo', 'hi']);
    expect(result).toMatchObject({ code: 0, stdout: 'hi\n', stderr: '' });
  });

  it("exits with the command's exit code", async () => {
    const result = await cli.run([
      'containers',
      'exec',
      names.web,
      ...host,
      '--',
      'sh',
      '-c',
      'echo oops >&2; exit 3',
    ]);
    expect(result).toMatchObject({ code: 3, stdout: '', stderr: 'oops\n' });
  });

  it.skipIf(Boolean(registrySkipReason))(
    'pulls an image from a registry, showing progress on stderr, then prints the image',
    async () => {
      const registry = node.registry!;
      const image = await registry.push(node.podman.image, `ig-${run}/pulled:latest`);
      const result = await cli.run(
        ['images', 'pull', image, ...host, '--username', registry.username, '--password-stdin'],
        `${registry.password}\n`,
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/\d+\/\d+ layers/);
      expect(JSON.parse(result.stdout).repoTags).toContain(image);
      expect((await node.podman.docker.getImage(image).inspect()).RepoTags).toContain(image);
    },
  );

  describe.skipIf(Boolean(registrySkipReason))('registry credentials', () => {
    it("stores a registry's credentials, reading the password from standard input", async () => {
      const registry = node.registry!;
      const set = ['registry-credentials', 'set', registry.address, ...host, '--username', registry.username];
      const result = await cli.run([...set, '--password-stdin'], `${registry.password}\n`);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        registry: registry.address,
        username: registry.username,
      });
      expect(result.stdout).not.toContain(registry.password);
    });

    it('lists the registries with their usernames, never the passwords', async () => {
      const registry = node.registry!;
      const result = await cli.run(['registry-credentials', 'ls', ...host]);
      expect(JSON.parse(result.stdout)).toEqual([
        expect.objectContaining({ registry: registry.address, username: registry.username }),
      ]);
      expect(result.stdout).not.toContain(registry.password);
    });

    it('lets a pull without credentials use the stored ones', async () => {
      const image = await node.registry!.push(node.podman.image, `ig-${run}/stored:latest`);
      const result = await cli.run(['images', 'pull', image, ...host]);
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout).repoTags).toContain(image);
    });

    it('deletes them', async () => {
      const result = await cli.run(['registry-credentials', 'rm', node.registry!.address, ...host]);
      expect(result.code, result.stderr).toBe(0);
      expect(await cli.json(['registry-credentials', 'ls', ...host])).toEqual([]);
    });

    it('refuses to store credentials without the password on standard input', async () => {
      const result = await cli.run([
        'registry-credentials',
        'set',
        'registry.example',
        ...host,
        '--username',
        'u',
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("required option '--password-stdin' not specified");
    });
  });

  it('deletes an image by reference, and prunes dangling ones', async () => {
    const image = `localhost/ig-${run}-copy:latest`;
    await node.podman.docker
      .getImage(node.podman.image)
      .tag({ repo: `localhost/ig-${run}-copy`, tag: 'latest' });
    const deleted = await cli.json(['images', 'rm', image, ...host]);
    expect(deleted.untagged).toContain(image);
    await expect(node.podman.docker.getImage(image).inspect()).rejects.toThrow();
    expect(await cli.json(['images', 'prune', ...host])).toMatchObject({ deleted: expect.any(Array) });
  });

  it('creates a volume and deletes it', async () => {
    const name = `ig-${run}-cli-vol`;
    expect(await cli.json(['volumes', 'create', name, ...host])).toMatchObject({ name });
    expect((await cli.run(['volumes', 'rm', name, ...host])).code).toBe(0);
    expect((await node.gateway.call('GET', `${node.base()}/volumes/${name}`)).status).toBe(404);
  });

  it('creates a network, connects a container to it, disconnects it and deletes the network', async () => {
    const name = `ig-${run}-cli-net`;
    expect(await cli.json(['networks', 'create', name, ...host, '--internal'])).toMatchObject({ name });
    expect(
      (await cli.run(['networks', 'connect', name, names.sidecar, ...host, '--alias', 'side'])).code,
    ).toBe(0);
    const inspected = await cli.json(['networks', 'get', name, ...host]);
    expect(JSON.stringify(inspected)).toContain(names.sidecar);
    expect((await cli.run(['networks', 'disconnect', name, names.sidecar, ...host])).code).toBe(0);
    expect((await cli.run(['networks', 'rm', name, ...host])).code).toBe(0);
    expect((await node.gateway.call('GET', `${node.base()}/networks/${name}`)).status).toBe(404);
  });

  it('kills a container with a signal and restarts it', async () => {
    expect((await cli.run(['containers', 'kill', names.stopper, ...host, '--signal', 'SIGKILL'])).code).toBe(
      0,
    );
    expect(await state(names.stopper)).toMatchObject({ running: false });
    expect((await cli.run(['containers', 'restart', names.stopper, ...host, '--timeout', '0'])).code).toBe(0);
    expect(await state(names.stopper)).toMatchObject({ running: true });
  });

  it("prints one sample of a running container's resource use as a line at a terminal", async () => {
    const result = await cli.terminal(['containers', 'stats', names.web, ...host]);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(
      /^CPU (\d+\.\d%|-) {2}MEM \S+ \S*B.* {2}NET .* in \/ .* out {2}BLOCK .* read \/ .* written {2}PIDS \d+/,
    );
  });

  it('prints the sample as JSON for scripts', async () => {
    const sample = await cli.json(['containers', 'stats', names.web, ...host]);
    expect(sample).toMatchObject({ memoryBytes: expect.any(Number), networkRxBytes: expect.any(Number) });
    expect(sample.pids).toBeGreaterThanOrEqual(1);
  });

  it('streams a JSON line per sample with --stream and ends when the container stops', async () => {
    const name = `ig-${run}-stats`;
    await shell(name, 'exec sleep 3600');
    const stream = await cli.start(['containers', 'stats', name, ...host, '--stream']);
    await eventually(() => stream.stdout().split('\n').length > 2, 'two samples');
    await node.podman.docker.getContainer(name).stop({ t: 0 });
    expect(await stream.exited).toBe(0);
    const samples = stream
      .stdout()
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(samples[0]).toMatchObject({ memoryBytes: expect.any(Number), pids: expect.any(Number) });
  });

  it('re-creates a container with the same configuration, running again', async () => {
    const name = `ig-${run}-renewed`;
    const before = await (await shell(name, 'exec sleep 3600')).inspect();
    const renewed = await cli.json(['containers', 'recreate', name, ...host]);
    expect(renewed).toMatchObject({ name, image: before.Config.Image, state: { running: true } });
    expect(renewed.id).not.toBe(before.Id);
    expect((await node.podman.docker.getContainer(name).inspect()).Config.Cmd).toEqual(before.Config.Cmd);
  });

  it('prints the reason of a failed pull and exits 1', async () => {
    const result = await cli.run(['images', 'pull', `127.0.0.1:1/ig-${run}/absent:latest`, ...host]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^infragate: UNPROCESSABLE_ENTITY .*PULL_FAILED/m);
  });
});

describe('--help of the container actions, in a real process', () => {
  it.each([
    ['containers', 'create'],
    ['containers', 'kill'],
    ['containers', 'logs'],
    ['containers', 'exec'],
    ['images', 'pull'],
    ['networks', 'connect'],
    ['registry-credentials', 'set'],
  ])('infragate %s %s --help', async (area, verb) => {
    const result = await runCli([area, verb, '--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: infragate ${area} ${verb}`);
    expect(result.stdout).toContain('--host <host>');
  });
});
