import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { configProblems as problems } from '../unit-support/config-problems.js';

// The operator's settings of what on the gateway's own host its records may reach: node roots and
// engine sockets, both compared by real path.
const tempRoot = () => fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-reach-')));

describe('INFRAGATE_NODE_ROOTS', () => {
  it('is unset by default: roots may be anywhere outside the data directory', () => {
    expect(loadConfig({}).nodeRoots).toBeUndefined();
  });

  it('takes comma-separated directories, each as its real path', () => {
    const [first, second] = [tempRoot(), tempRoot()];
    const link = path.join(tempRoot(), 'link');
    fs.symlinkSync(second, link);
    expect(loadConfig({ INFRAGATE_NODE_ROOTS: ` ${first} , ${link}` }).nodeRoots).toEqual([first, second]);
  });

  it('refuses a relative path, a missing directory and a file, naming them', () => {
    const file = path.join(tempRoot(), 'file');
    fs.writeFileSync(file, '');
    for (const bad of ['srv/files', '/no/such/dir', file])
      expect(problems({ INFRAGATE_NODE_ROOTS: bad })).toEqual([
        `INFRAGATE_NODE_ROOTS=${bad} is invalid: expected absolute paths of existing directories, comma-separated`,
      ]);
  });

  it('refuses a value that lists nothing', () => {
    expect(problems({ INFRAGATE_NODE_ROOTS: ' , ' })).toHaveLength(1);
  });
});

describe('INFRAGATE_ENGINE_SOCKETS', () => {
  it('is unset by default: any socket', () => {
    expect(loadConfig({}).engineSockets).toBeUndefined();
  });

  it('takes sockets and directories that need not exist yet, their links followed', () => {
    const dir = tempRoot();
    fs.symlinkSync(dir, path.join(dir, 'run'));
    expect(
      loadConfig({ INFRAGATE_ENGINE_SOCKETS: `${dir}/run/podman/podman.sock,${dir}/docker` }).engineSockets,
    ).toEqual([`${dir}/podman/podman.sock`, `${dir}/docker`]);
  });

  it('refuses a relative path', () => {
    const [problem] = problems({ INFRAGATE_ENGINE_SOCKETS: 'run/docker.sock' });
    expect(problem).toMatch(/^INFRAGATE_ENGINE_SOCKETS=run\/docker.sock is invalid: expected absolute paths/);
  });
});
