import type { Command } from 'commander';
import type { CallAnswer } from '../api-client.js';
import { type ApiContext, apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { integer, nullable, stdinSecret, text } from '../flags.js';
import {
  actionCommand,
  crudCommands,
  getCommand,
  lsCommand,
  recordParams,
  resource,
  resourceCommand,
} from '../resource.js';

/** Inference providers: the catalog, connections (API key, local, OAuth) and OAuth sign-in sessions. */
const connections = resource({ noun: 'connection', list: '/api/inference/connections', id: 'id' });
const sessions = resource({
  noun: 'session',
  list: '/api/inference/providers/oauth',
  id: 'id',
  lookup: 'as-is',
});
const COMPLETE = '/api/inference/providers/oauth/{id}/complete';
type Session = CallAnswer<typeof COMPLETE, 'POST'>;

const apiKey = stdinSecret('api-key-stdin', 'apiKey', "read the provider's API key from standard input");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a device-flow session (one `complete` per interval) until it is no longer pending. */
async function poll(context: ApiContext, id: string, timeoutSeconds: number): Promise<Session> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const session = await context.api.call('POST', COMPLETE, { path: { id }, json: {} });
    if (session.status !== 'pending') return session;
    if (Date.now() >= deadline)
      throw new CliError(`session ${session.id} is still pending after ${timeoutSeconds} s`);
    await sleep((session.pollIntervalSeconds ?? 5) * 1000);
  }
}

function describeSession(session: Session): string {
  if (session.status === 'complete') return `signed in: connection ${session.connectionId}`;
  if (session.status === 'error')
    return `sign-in failed: ${session.errorCode} ${session.errorMessage ?? ''}`.trim();
  if (session.status !== 'pending') return `session ${session.status}`;
  const steps =
    session.completionMode === 'device_poll'
      ? `open ${session.authorizationUrl} and enter ${session.userCode}, then: infragate inference oauth poll ${session.id}`
      : `open ${session.authorizationUrl}, sign in, then: infragate inference oauth complete ${session.id} --callback '<the URL you were sent to>'`;
  return `session ${session.id} pending: ${steps}`;
}

function registerOAuth(area: Command): void {
  const oauth = area.command('oauth').description('OAuth sign-in sessions that create OAuth connections');
  lsCommand(oauth, sessions, {
    columns: ['providerId', 'status', 'completionMode', 'expiresAt', 'id'],
    filters: [
      text('--provider <id>', 'providerId', 'only this catalog entry'),
      text('--status <status>', 'status', 'pending, complete, error, expired or cancelled'),
    ],
  });
  getCommand(oauth, sessions);
  const report = async (context: ApiContext, session: Session) => {
    context.out.done(session, describeSession(session));
    if (session.status === 'error' || session.status === 'expired' || session.status === 'cancelled')
      process.exitCode = 1;
  };
  apiAction(
    resourceCommand(oauth, sessions, 'start', 'start signing in to a provider; prints where to go next')
      .requiredOption('--provider <id>', 'catalog entry with OAuth (see infragate inference catalog)')
      .option('--name <name>', 'name of the connection it creates'),
    async (context) => {
      const session = await context.api.call('POST', '/api/inference/providers/oauth/start', {
        json: { providerId: context.opts.provider, name: context.opts.name },
      });
      await report(context, session);
    },
  );
  apiAction(
    resourceCommand(
      oauth,
      sessions,
      'complete <session>',
      'finish a redirect sign-in with the callback URL (or poll a device sign-in once)',
    ).option('--callback <url>', 'the callback URL, its query string, or code#state'),
    async (context) => {
      const path = await recordParams(sessions, context, context.args[0]);
      const json = context.opts.callback === undefined ? {} : { callback: context.opts.callback };
      await report(context, await context.api.call('POST', COMPLETE, { path, json }));
    },
  );
  apiAction(
    resourceCommand(
      oauth,
      sessions,
      'poll <session>',
      'wait for a device sign-in to finish, polling at the interval the provider asks',
    ).option('--timeout <seconds>', 'give up after this long (default 900)', (value) =>
      integer(value, '--timeout'),
    ),
    async (context) => {
      const { id } = await recordParams(sessions, context, context.args[0]);
      await report(context, await poll(context, id, context.opts.timeout ?? 900));
    },
  );
  actionCommand(oauth, sessions, {
    name: 'cancel',
    path: '/cancel',
    description: 'cancel a pending session',
  });
}

const connectionFlags = (creating: boolean) => [
  text('--name <name>', 'name', 'unique name', creating),
  apiKey,
  creating
    ? text('--base-url <url>', 'baseUrl', "the provider's URL, where the catalog entry allows another")
    : nullable('--base-url <url>', 'baseUrl', "the provider's URL"),
];

export function registerInference(program: Command): void {
  const area = program
    .command('inference')
    .description('inference providers, connections and OAuth (inference:view|manage)');
  apiAction(area.command('catalog').description('the provider catalog'), async (context) => {
    const catalog = await context.api.call('GET', '/api/inference/providers/catalog');
    context.out.list(catalog, ['id', 'label', 'family', 'authTypes', 'oauthFlow']);
  });

  const sub = area.command('connections').description('connections to providers');
  crudCommands(sub, connections, {
    list: {
      columns: ['name', 'providerId', 'authType', 'lastTestOk', 'id'],
      filters: [
        text('--provider <id>', 'providerId', 'only this catalog entry'),
        text('--auth-type <type>', 'authType', 'api_key, local or oauth'),
        text('--q <text>', 'q', 'substring of the name'),
      ],
    },
    create: {
      flags: [
        text('--provider <id>', 'providerId', 'catalog entry', true),
        text('--auth-type <type>', 'authType', 'api_key or local (oauth: use inference oauth start)', true),
        ...connectionFlags(true),
      ],
    },
    update: {
      flags: connectionFlags(false),
      description: 'change a connection (-F apiKey=null removes the key)',
    },
  });
  actionCommand(sub, connections, {
    name: 'test',
    path: '/test',
    description: "list the provider's models once with the connection",
  });
  actionCommand(sub, connections, {
    name: 'refresh',
    path: '/refresh',
    description: 'renew an OAuth access token now',
  });
  registerOAuth(area);
}
