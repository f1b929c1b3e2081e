import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { list, text, whole } from '../flags.js';
import { createCommand, deleteCommand, lsCommand, resource } from '../resource.js';

/** The caller's own API tokens and browser sessions (`/auth/…`, any valid token). */
const tokens = resource({ noun: 'token', list: '/auth/tokens', id: 'id', lookup: { by: 'name' } });
const sessions = resource({ noun: 'session', list: '/auth/me/sessions', lookup: 'as-is' });

export function registerAuth(program: Command): void {
  const area = program.command('auth').description("the caller's own API tokens and sessions");
  const sub = area.command('tokens').description('your API tokens (the local one: infragate tokens create)');
  lsCommand(sub, tokens, {
    columns: ['name', 'scopes', 'createdAt', 'expiresAt', 'lastUsedAt', 'id'],
    unpaginated: true,
  });
  createCommand(sub, tokens, {
    flags: [
      text('--name <name>', 'name', 'token name', true),
      whole('--expires-in-days <days>', 'expiresInDays', 'lifetime (1-3650; default: never)'),
      list(
        '--scopes <a,b>',
        'scopes',
        'narrow the token to these of your scopes (default: those of the token you use)',
      ),
    ],
    description: 'create an API token (shown once)',
  });
  deleteCommand(sub, tokens, {
    name: 'revoke',
    description: 'revoke one of your API tokens (name or id)',
    done: 'revoked',
  });

  const sessionSub = area.command('sessions').description('your browser sessions');
  lsCommand(sessionSub, sessions, {
    columns: ['name', 'createdAt', 'lastUsedAt', 'clientIp', 'current', 'id'],
    unpaginated: true,
  });
  apiAction(
    sessionSub
      .command('revoke-others')
      .description('end your other sessions (all of them with an API token)'),
    async (context) => {
      const answer = await context.api.call('POST', '/auth/me/sessions/revoke-others');
      context.out.done(answer, `revoked ${answer.revoked} sessions`);
    },
  );
}
