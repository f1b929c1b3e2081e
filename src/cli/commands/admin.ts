import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { bool, commaList, list, stdinSecret, text } from '../flags.js';
import {
  actionCommand,
  createCommand,
  deleteCommand,
  getCommand,
  idOf,
  lsCommand,
  resource,
  resourceCommand,
  updateCommand,
} from '../resource.js';

/**
 * Users and groups through the API (`admin:users`). The top-level `users` and `groups` commands
 * are the local bootstrap ones that open the database; these act as the token's user, audited.
 */
const users = resource({
  noun: 'user',
  list: '/api/admin/users',
  id: 'id',
  lookup: { by: 'email', search: 'q' },
});
const groups = resource({ noun: 'group', list: '/api/admin/groups', id: 'id', lookup: { by: 'name' } });

function registerUsers(area: Command): void {
  const sub = area.command('users').description('users (by email or id)');
  lsCommand(sub, users, {
    columns: ['email', 'name', 'groupName', 'disabled', 'id'],
    filters: [
      text('--q <text>', 'q', 'substring of the email or name'),
      text('--group <group>', 'groupName', 'only members of this group'),
      bool('disabled', 'disabled', 'only disabled users'),
    ],
  });
  getCommand(sub, users);
  createCommand(sub, users, {
    flags: [
      text('--email <email>', 'email', 'login email', true),
      text('--name <name>', 'name', 'display name', true),
      text('--group <group>', 'group', 'group name or id', true),
      stdinSecret('password-stdin', 'password', 'read a password (8+ characters) from standard input'),
    ],
  });
  updateCommand(sub, users, {
    name: 'rename',
    args: '<name>',
    path: '/name',
    flags: [],
    fromArgs: ([name]) => ({ name }),
    description: "change a user's display name",
  });
  updateCommand(sub, users, {
    name: 'set-group',
    args: '<group>',
    path: '/group',
    flags: [],
    fromArgs: ([group]) => ({ group }),
    description: 'move a user to another group (its scopes apply at once)',
  });
  for (const disabled of [true, false])
    actionCommand(sub, users, {
      name: disabled ? 'disable' : 'enable',
      method: 'PATCH',
      path: '/disabled',
      fromArgs: () => ({ disabled }),
      description: disabled ? 'disable a user (its tokens stop working at once)' : 'enable a disabled user',
    });
  actionCommand(sub, users, {
    name: 'set-password',
    method: 'PUT',
    path: '/password',
    flags: [
      {
        ...stdinSecret('password-stdin', 'password', 'read the password (8+ characters) from standard input'),
        required: true,
      },
    ],
    description: "set a user's password for browser login",
    done: 'password set',
  });
  actionCommand(sub, users, {
    name: 'reset-totp',
    method: 'DELETE',
    path: '/totp',
    description:
      "remove a user's authenticator (a lost device); they enrol again when their group requires it",
  });
  deleteCommand(sub, users, {
    description:
      'delete a user (their sessions and tokens stop at once; the audit trail keeps their history)',
  });
}

function registerGroups(area: Command): void {
  const sub = area.command('groups').description('groups and their scopes');
  lsCommand(sub, groups, {
    columns: ['name', 'scopes', 'requireMfa', 'userCount', 'id'],
    unpaginated: true,
  });
  // The API has no route for one group: it is picked from the list.
  apiAction(resourceCommand(sub, groups, 'get <group>', 'show one group'), async (context) => {
    const id = await idOf(groups, context, context.args[0]);
    const { data } = await context.api.call('GET', '/api/admin/groups');
    const group = data.find((row) => row.id === id);
    if (!group) throw new CliError(`no group with id ${id}`);
    context.out.record(group);
  });
  createCommand(sub, groups, {
    flags: [
      text('--name <name>', 'name', 'group name', true),
      list('--scopes <a,b>', 'scopes', 'comma-separated scopes (empty: none)', true),
    ],
  });
  updateCommand(sub, groups, {
    name: 'set-scopes',
    args: '<scopes>',
    path: '/scopes',
    flags: [],
    fromArgs: ([scopes]) => ({ scopes: commaList(scopes) }),
    description: "replace a group's scopes (comma-separated; applies to its members at once)",
  });
  updateCommand(sub, groups, {
    flags: [
      text('--name <name>', 'name', 'new name'),
      bool('require-mfa', 'requireMfa', 'members must sign in with a second factor (TOTP)'),
    ],
    description: 'rename a group or change whether its members need a second factor',
  });
  updateCommand(sub, groups, {
    name: 'rename',
    args: '<name>',
    flags: [],
    fromArgs: ([name]) => ({ name }),
    description: 'rename a group',
  });
  deleteCommand(sub, groups, {
    description: 'delete a group (409 while it has members or an identity provider maps to it)',
  });
}

export function registerAdmin(program: Command): void {
  const area = program.command('admin').description('users and groups through the API (admin:users)');
  registerUsers(area);
  registerGroups(area);
}
