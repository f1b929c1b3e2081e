import type { Command } from 'commander';
import { integer } from '../flags.js';

/** `infragate agent`: the program that runs on a managed host and dials out to the gateway. */
export function registerAgent(program: Command): void {
  program
    .command('agent')
    .description(
      'run on a host to make it an agent node: enrols once with --token, then keeps one outbound tunnel to the gateway (listens on no port)',
    )
    .requiredOption(
      '--gateway <url>',
      "the gateway's address (http:// or https://), as the enrolment command says",
    )
    .option('--token <token>', 'the one-time enrolment token (needed until the agent holds its credential)')
    .requiredOption('--root <dir>', 'the directory the gateway may reach files under')
    .option('--docker <endpoint>', 'the Docker Engine socket, e.g. unix:///var/run/docker.sock')
    .option('--state-dir <dir>', 'where the credential is kept (mode 0600)', '/var/lib/infragate-agent')
    .option('--reconnect-max-seconds <n>', 'the longest wait between two reconnects', '30')
    .action(async (options: Record<string, string | undefined>) => {
      const { runAgent } = await import('../../agent/agent.js');
      const stop = new AbortController();
      process.once('SIGTERM', () => stop.abort());
      process.once('SIGINT', () => stop.abort());
      await runAgent({
        gateway: options.gateway!,
        token: options.token,
        root: options.root!,
        docker: options.docker,
        stateDir: options.stateDir!,
        version: program.version() ?? '0.0.0',
        reconnectMaxMs: integer(options.reconnectMaxSeconds!, '--reconnect-max-seconds') * 1000,
        log: (line) => process.stdout.write(`infragate agent: ${line}\n`),
        signal: stop.signal,
      });
    });
}
