/**
 * The CLI's calls are typed from the API document: a renamed route, placeholder or field fails the
 * build where the CLI names it. This file is checked by `npm run typecheck` and never run: each
 * `@ts-expect-error` line must fail to compile (tsc reports the directive when it does not), and
 * the lines without one show the same call written right.
 */
import type { Command } from 'commander';
import type { ApiContext } from '../../src/cli/api-command.js';
import { bodyFromFlags, text } from '../../src/cli/flags.js';
import {
  actionCommand,
  createCommand,
  deleteCommand,
  getCommand,
  lsCommand,
  resource,
  updateCommand,
} from '../../src/cli/resource.js';

declare const area: Command;
declare const context: ApiContext;

const users = resource({
  noun: 'user',
  list: '/api/admin/users',
  id: 'id',
  lookup: { by: 'email', search: 'q' },
});

export function resourcesNameTheirRoutesAndFields(): void {
  // @ts-expect-error: no such route
  resource({ noun: 'user', list: '/api/admin/user', id: 'id' });
  // @ts-expect-error: users have no field `mail` to be found by
  resource({ noun: 'user', list: '/api/admin/users', id: 'id', lookup: { by: 'mail' } });
  // @ts-expect-error: a host's containers need the value of `{nodeId}`
  resource({ noun: 'container', list: '/api/containerhost/nodes/{nodeId}/containers', id: 'containerId' });
}

export function verbsCheckTheirColumnsFlagsAndRoutes(): void {
  lsCommand(area, users, { columns: ['email', 'groupName'], filters: [text('--q <text>', 'q', 'q')] });
  // @ts-expect-error: users have no field `group` (it is `groupName`)
  lsCommand(area, users, { columns: ['email', 'group'] });
  // @ts-expect-error: the list takes no query parameter `search`
  lsCommand(area, users, { columns: ['email'], filters: [text('--search <text>', 'search', 'q')] });

  createCommand(area, users, { flags: [text('--email <email>', 'email', 'login email')] });
  // @ts-expect-error: a new user has no field `mail`
  createCommand(area, users, { flags: [text('--email <email>', 'mail', 'login email')] });

  updateCommand(area, users, { path: '/name', flags: [], fromArgs: ([name]) => ({ name }) });
  // @ts-expect-error: there is no PATCH /api/admin/users/{id}/nickname
  updateCommand(area, users, { path: '/nickname', flags: [] });

  actionCommand(area, users, { name: 'set-password', description: '', method: 'PUT', path: '/password' });
  // @ts-expect-error: the password is set with PUT, not POST
  actionCommand(area, users, { name: 'set-password', description: '', path: '/password' });

  getCommand(area, users);
  // @ts-expect-error: the API has no route for one group
  getCommand(area, resource({ noun: 'group', list: '/api/admin/groups', id: 'id' }));
  // @ts-expect-error: deleting a user takes no query parameter `force`
  deleteCommand(area, users, { flags: [{ flags: '--force', field: 'force', description: '' }] });
}

export async function callsCheckTheirPlaceholdersBodiesAndAnswers(): Promise<void> {
  const { data: user } = await context.api.call('GET', '/api/admin/users/{id}', { path: { id: 'x' } });
  // @ts-expect-error: a user has no field `mail`
  user.mail;
  // @ts-expect-error: the placeholder is `{id}`
  await context.api.call('GET', '/api/admin/users/{id}', { path: { userId: 'x' } });
  // @ts-expect-error: the route needs the value of its placeholder
  await context.api.call('GET', '/api/admin/users/{id}');
  // @ts-expect-error: a new user needs a name
  await context.api.call('POST', '/api/admin/users', { json: { email: 'a@example.org', group: 'ops' } });
  const json = await bodyFromFlags(context, [text('--mail <email>', 'mail', '')]);
  // @ts-expect-error: flags that set a field the body does not have
  await context.api.call('POST', '/api/admin/users', { json });
  // @ts-expect-error: the answer's fields name the table's columns
  context.out.list([user], ['email', 'group']);
}
