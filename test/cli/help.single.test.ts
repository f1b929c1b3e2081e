import fs from 'node:fs';
import { type Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { walkCommands } from '../../src/cli/command-tree.js';
import { buildProgram } from '../../src/cli/program.js';
import { REPO_ROOT } from '../support/build.js';
import { runCli } from '../support/cli.js';

const version = (JSON.parse(fs.readFileSync(`${REPO_ROOT}/package.json`, 'utf8')) as { version: string })
  .version;

/** Parses `words` with a fresh command tree whose output is captured; answers what it printed and how it ended. */
async function parseCaptured(words: string[]) {
  const program = buildProgram();
  let out = '';
  let err = '';
  for (const command of [program, ...walkCommands(program).map((found) => found.command)])
    command.configureOutput({
      writeOut: (text) => {
        out += text;
      },
      writeErr: (text) => {
        err += text;
      },
    });
  const ended = await program.parseAsync(['node', 'infragate', ...words]).then(
    () => undefined,
    (error: unknown) => error,
  );
  return { out, err, ended };
}

/** The usage line's command words: `infragate containers ls|list` for the `ls` command. */
function usagePrefix(words: string[], command: Command): string {
  const name = [command.name(), ...command.aliases()].join('|');
  return `Usage: infragate ${[...words.slice(0, -1), name].join(' ')}`;
}

const tree = walkCommands(buildProgram());

describe('infragate --help', () => {
  it('is answered by every command and subcommand of the tree, with exit code 0', async () => {
    expect(tree.length).toBeGreaterThan(150);
    for (const { words, command } of tree) {
      const { out, err, ended } = await parseCaptured([...words, '--help']);
      expect(ended, words.join(' ')).toBeInstanceOf(CommanderError);
      expect((ended as CommanderError).exitCode, words.join(' ')).toBe(0);
      expect(out, words.join(' ')).toContain(usagePrefix(words, command));
      expect(err, words.join(' ')).toBe('');
    }
  });

  it('gives every command a description', () => {
    const undescribed = tree
      .filter(({ command }) => !command.description())
      .map(({ words }) => words.join(' '));
    expect(undescribed).toEqual([]);
  });

  it('works in a real process for commands with subcommands (the local ones and some areas)', async () => {
    for (const name of ['users', 'groups', 'tokens', 'logging', 'containers', 'siem']) {
      const result = await runCli([name, '--help'], {});
      expect(result.code, name).toBe(0);
      expect(result.stdout, name).toContain(`Usage: infragate ${name}`);
      expect(result.stderr, name).toBe('');
    }
  });

  it('shows the subcommands of a command with subcommands (users --help lists create and list|ls)', async () => {
    const result = await runCli(['users', '--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/create \[options\]\s+create a user/);
    expect(result.stdout).toMatch(/list\|ls \[options\]\s+list users/);
  });

  it('works for a nested command in a real process (containers health set --help)', async () => {
    const result = await runCli(['containers', 'health', 'set', '--help'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--host <host>');
    expect(result.stdout).toContain('--expected-body <text>');
  });

  it('prints the top-level help when run without arguments', async () => {
    const result = await runCli([], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: infragate');
  });
});

describe('infragate --version and usage errors', () => {
  it('--version prints the package version', async () => {
    const result = await runCli(['--version'], {});
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(version);
  });

  it('an unknown command is one line on stderr and exit code 1', async () => {
    const result = await runCli(['contaners', 'ls'], {});
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^infragate: unknown command 'contaners'.*containers/);
  });

  it('a missing required option is one line on stderr and exit code 1', async () => {
    const result = await runCli(['pages', 'deploy', 'site'], {});
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe("infragate: required option '--project <project>' not specified");
  });

  it('an unknown option is one line on stderr and exit code 1', async () => {
    const result = await runCli(['pages', 'ls', '--frobnicate'], {});
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain("unknown option '--frobnicate'");
  });
});

describe('list commands', () => {
  const names = (command: Command) => [command.name(), ...command.aliases()];
  const lists = tree.filter(({ command }) => names(command).some((name) => name === 'list' || name === 'ls'));

  it('answer to both list and ls: each one named either has the other as an alias', () => {
    expect(lists.map(({ words }) => words.join(' '))).toEqual(
      expect.arrayContaining(['users list', 'groups list', 'admin users ls', 'containers files ls']),
    );
    const oneName = lists
      .filter(({ command }) => !(names(command).includes('list') && names(command).includes('ls')))
      .map(({ words }) => words.join(' '));
    expect(oneName).toEqual([]);
  });
});

describe('docs/cli.md', () => {
  it('names every command of the tree', () => {
    const docs = fs.readFileSync(`${REPO_ROOT}/docs/cli.md`, 'utf8');
    const missing = tree
      .filter(({ command }) => command.commands.length === 0)
      .map(({ words }) => words.join(' '))
      .filter((words) => !docs.includes(words));
    expect(missing).toEqual([]);
  });
});
