import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const run = promisify(execFile);
const scripts: Record<string, string> = {};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'infragate-completion-'));

beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await runCli(['completion', shell], {});
    expect(result.code).toBe(0);
    scripts[shell] = path.join(dir, `infragate.${shell}`);
    fs.writeFileSync(scripts[shell]!, result.stdout);
  }
});

/** What bash offers after the words typed so far (the last one is being completed). */
async function bashCompletes(words: string[]): Promise<string[]> {
  const array = ['infragate', ...words].map((word) => `'${word}'`).join(' ');
  const script = `source '${scripts.bash}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length}; _infragate; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const { stdout } = await run('bash', ['-c', script]);
  return stdout.split('\n').filter(Boolean);
}

// zsh and fish are not test peers (not installed by scripts/install-test-deps.sh): checked when present.
const has = (shell: string) => ['/usr/bin', '/bin'].some((where) => fs.existsSync(`${where}/${shell}`));

describe('infragate completion', () => {
  it('bash: the script parses (bash -n)', async () => {
    await expect(run('bash', ['-n', scripts.bash!])).resolves.toEqual({ stdout: '', stderr: '' });
  });

  it('bash: offers the top-level commands, then the subcommands of the command typed', async () => {
    expect(await bashCompletes(['cont'])).toEqual(['container-folders', 'containers']);
    expect(await bashCompletes(['containers', 'health', ''])).toEqual([
      'get',
      'set',
      'delete',
      'test',
      'results',
    ]);
  });

  it('bash: offers both names of a list command, list and ls', async () => {
    expect((await bashCompletes(['users', 'l'])).sort()).toEqual(['list', 'ls']);
    expect((await bashCompletes(['admin', 'users', 'l'])).sort()).toEqual(['list', 'ls']);
    expect((await bashCompletes(['containers', 'files', 'l'])).sort()).toEqual(['list', 'ls']);
  });

  it('bash: offers the options of the command typed, skipping option values', async () => {
    expect(await bashCompletes(['containers', 'ls', '--host', 'build-01', '--a'])).toEqual([
      '--all',
      '--all-pages',
    ]);
    expect(await bashCompletes(['users', 'create', '--pa'])).toEqual(['--password-stdin']);
  });

  it('refuses a shell it does not know', async () => {
    const result = await runCli(['completion', 'tcsh'], {});
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Allowed choices are bash, zsh, fish');
  });

  it.skipIf(!has('zsh'))('zsh: the script parses (zsh -n)', async () => {
    await expect(run('zsh', ['-n', scripts.zsh!])).resolves.toEqual({ stdout: '', stderr: '' });
  });

  it.skipIf(!has('fish'))('fish: the script parses and completes subcommands', async () => {
    await expect(run('fish', ['-n', scripts.fish!])).resolves.toEqual({ stdout: '', stderr: '' });
    const { stdout } = await run('fish', [
      '-c',
      `source '${scripts.fish}'; complete -C 'infragate containers health '`,
    ]);
    expect(stdout.split('\n').map((line) => line.split('\t')[0])).toEqual(
      expect.arrayContaining(['get', 'set', 'delete', 'test', 'results']),
    );
  });
});
