import { describe, expect, it } from 'vitest';
import { parseEndpoint, publishedHost } from '../../src/modules/containerhost/engine-endpoints.js';
import { containerPath, volumePath } from '../../src/modules/containerhost/file-paths.js';
import { parseImageReference } from '../../src/modules/containerhost/image-references.js';
import {
  FrameDecoder,
  JsonLines,
  LineSplitter,
  logLine,
} from '../../src/modules/containerhost/stream-frames.js';

// What the engine's streams carry and how endpoints, references and paths are read, without an engine.
const frame = (stream: number, text: string) => {
  const payload = Buffer.from(text);
  const header = Buffer.alloc(8);
  header[0] = stream;
  header.writeUInt32BE(payload.length, 4);
  return Buffer.concat([header, payload]);
};

describe('the multiplexed output stream', () => {
  it('splits frames into stdout and stderr, also when chunks cut a header or a payload', () => {
    const bytes = Buffer.concat([frame(1, 'out\n'), frame(2, 'err\n'), frame(1, 'more')]);
    const decoder = new FrameDecoder();
    const chunks = [bytes.subarray(0, 3), bytes.subarray(3, 14), bytes.subarray(14)].flatMap((chunk) =>
      decoder.push(chunk),
    );
    expect(chunks.map((c) => [c.stream, c.payload.toString()])).toEqual([
      ['stdout', 'out\n'],
      ['stderr', 'err\n'],
      ['stdout', 'more'],
    ]);
  });

  it('passes the raw bytes of a TTY container through as stdout', () => {
    expect(new FrameDecoder(true).push(Buffer.from('raw'))).toEqual([
      { stream: 'stdout', payload: Buffer.from('raw') },
    ]);
  });

  it('cuts lines per stream, decoding UTF-8 split across chunks, and keeps the unfinished one for the end', () => {
    const splitter = new LineSplitter();
    const euro = Buffer.from('€');
    const lines = [
      ...splitter.push({
        stream: 'stdout',
        payload: Buffer.concat([Buffer.from('a\r\nb'), euro.subarray(0, 1)]),
      }),
      ...splitter.push({ stream: 'stderr', payload: Buffer.from('e\n') }),
      ...splitter.push({
        stream: 'stdout',
        payload: Buffer.concat([euro.subarray(1), Buffer.from('\nrest')]),
      }),
    ];
    expect(lines).toEqual([
      { stream: 'stdout', text: 'a' },
      { stream: 'stderr', text: 'e' },
      { stream: 'stdout', text: 'b€' },
    ]);
    expect(splitter.flush()).toEqual([{ stream: 'stdout', text: 'rest' }]);
  });

  it('cuts a line that never ends into pieces', () => {
    const lines = new LineSplitter(4).push({ stream: 'stdout', payload: Buffer.from('abcdefghij') });
    expect(lines.map((line) => line.text)).toEqual(['abcd', 'efgh']);
  });

  it("takes the engine's timestamp off a log line", () => {
    const text = '2026-11-25T01:08:29.123456789Z hello world';
    expect(logLine({ stream: 'stdout', text }, true)).toEqual({
      stream: 'stdout',
      timestamp: '2026-11-25T01:08:29.123456789Z',
      line: 'hello world',
    });
    expect(logLine({ stream: 'stdout', text }, false).timestamp).toBeNull();
  });

  it('parses newline-delimited JSON across chunks and keeps a line that is not JSON as text', () => {
    const lines = new JsonLines();
    expect([
      ...lines.push(Buffer.from('{"a":1}\r\n{"b"')),
      ...lines.push(Buffer.from(':2}\nnot json\n')),
    ]).toEqual([{ a: 1 }, { b: 2 }, { text: 'not json' }]);
  });
});

describe('image references', () => {
  it('reads Docker Hub references with the tag made explicit', () => {
    expect(parseImageReference('nginx')).toEqual({
      registry: 'docker.io',
      host: 'registry-1.docker.io',
      fromImage: 'nginx',
      tag: 'latest',
      name: 'nginx:latest',
    });
    expect(parseImageReference('library/nginx:1.27')).toMatchObject({ registry: 'docker.io', tag: '1.27' });
  });

  it('reads a registry with a port, and a digest without a tag', () => {
    const digest = `sha256:${'a'.repeat(64)}`;
    expect(parseImageReference(`127.0.0.1:5000/team/app@${digest}`)).toEqual({
      registry: '127.0.0.1:5000',
      host: '127.0.0.1',
      fromImage: `127.0.0.1:5000/team/app@${digest}`,
      tag: undefined,
      name: `127.0.0.1:5000/team/app@${digest}`,
    });
    expect(parseImageReference('localhost/app:dev')).toMatchObject({
      registry: 'localhost',
      host: 'localhost',
    });
  });

  it('refuses what is no reference', () => {
    for (const text of ['Nginx', 'a b', 'app:', 'app@sha256:xyz', 'registry.example:5000/', 'a/../b'])
      expect(parseImageReference(text)).toHaveProperty('error');
  });
});

describe('paths of file operations', () => {
  it('normalises a container path and keeps it absolute', () => {
    expect(containerPath('/srv//app/./config/')).toBe('/srv/app/config');
    expect(containerPath('/')).toBe('/');
  });

  it('reads a volume path with or without its leading slash', () => {
    expect(volumePath('data/a.txt')).toBe('/data/a.txt');
    expect(volumePath('/')).toBe('/');
  });

  it('refuses .. segments and relative container paths', () => {
    expect(() => containerPath('/srv/../etc')).toThrow();
    expect(() => containerPath('srv')).toThrow();
    expect(() => volumePath('a/..')).toThrow();
  });
});

describe('node endpoints', () => {
  it('reads a unix socket path', () => {
    expect(parseEndpoint('unix:///run/podman/podman.sock')).toEqual({
      kind: 'unix',
      socketPath: '/run/podman/podman.sock',
    });
  });

  it('reads a tcp host and port, an IPv6 host without its brackets', () => {
    expect(parseEndpoint('tcp://engine.example:2376')).toEqual({
      kind: 'tcp',
      host: 'engine.example',
      port: 2376,
    });
    expect(parseEndpoint('tcp://[fd00::5]:2375')).toEqual({ kind: 'tcp', host: 'fd00::5', port: 2375 });
    expect(parseEndpoint('tcp://engine.example:2376/')).toMatchObject({ kind: 'tcp' });
  });

  it('reads an ssh user, host and port, port 22 by default, the user percent-decoded', () => {
    expect(parseEndpoint('ssh://deploy@build-01.example')).toEqual({
      kind: 'ssh',
      host: 'build-01.example',
      port: 22,
      username: 'deploy',
    });
    expect(parseEndpoint('ssh://ops%40corp@10.0.0.7:2222')).toEqual({
      kind: 'ssh',
      host: '10.0.0.7',
      port: 2222,
      username: 'ops@corp',
    });
  });

  it.each([
    ['unix://relative.sock', 'must be unix:///path.sock, tcp://host:port or ssh://user@host'],
    ['not an endpoint', 'must be unix:///path.sock, tcp://host:port or ssh://user@host'],
    ['http://engine.example:2375', 'must be unix:///path.sock, tcp://host:port or ssh://user@host'],
    ['tcp://engine.example:2375/v1.41', 'must not have a path, query or fragment'],
    ['tcp://engine.example:2375?tls=1', 'must not have a path, query or fragment'],
    ['tcp://engine.example:2375#x', 'must not have a path, query or fragment'],
    ['tcp://engine.example', 'tcp:// endpoints need a host and a port'],
    ['tcp://admin@engine.example:2375', 'tcp:// endpoints take no user'],
    ['ssh://build-01.example', 'ssh:// endpoints need user@host'],
    ['ssh://deploy:secret@build-01.example', 'put the SSH key in sshPrivateKey, not a password in the URL'],
  ])('refuses %j: %s', (text, error) => {
    expect(parseEndpoint(text)).toEqual({ error });
  });

  it("probes a unix socket node's ports on loopback and a remote node's on its host", () => {
    expect(publishedHost({ kind: 'unix', socketPath: '/run/podman/podman.sock' })).toBe('127.0.0.1');
    expect(publishedHost({ kind: 'ssh', host: 'build-01.example', port: 22, username: 'deploy' })).toBe(
      'build-01.example',
    );
  });
});
