#!/usr/bin/env node
import { CommanderError } from 'commander';
import { CliError, describeError } from './cli/cli-error.js';
import { buildProgram } from './cli/program.js';

/** Every failure is one line on stderr and exit code 1 (help and --version exit 0). */
function fail(error: unknown): never {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) process.exit(0);
    if (error.code === 'commander.help') process.exit(error.exitCode);
    process.stderr.write(
      `infragate: ${error.message
        .replace(/^error: /, '')
        .split('\n')
        .join(' ')}\n`,
    );
    process.exit(error.exitCode || 1);
  }
  const message = error instanceof CliError ? error.message : describeError(error);
  process.stderr.write(`infragate: ${message.split('\n').join('; ')}\n`);
  process.exit(1);
}

const program = buildProgram();
if (process.argv.length <= 2) program.outputHelp();
else program.parseAsync(process.argv).catch(fail);
