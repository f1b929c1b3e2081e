import { Argument, type Command } from 'commander';
import { SHELLS, type Shell } from '../completion.js';

/** `completion bash|zsh|fish`: prints the completion script of the whole command tree. */
export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script (bash: source <(infragate completion bash))')
    .addArgument(new Argument('<shell>', 'the shell').choices(Object.keys(SHELLS)))
    .action((shell: Shell) => {
      process.stdout.write(SHELLS[shell](program));
    });
}
