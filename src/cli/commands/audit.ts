import type { Command } from 'commander';
import { apiAction } from '../api-command.js';
import { text } from '../flags.js';
import { getCommand, lsCommand, resource } from '../resource.js';

/** The audit trail: events (newest first) and the hash-chain check. */
const events = resource({ noun: 'event', list: '/api/audit/events', id: 'id', lookup: 'as-is' });

export function registerAudit(program: Command): void {
  const area = program.command('audit').description('the tamper-evident audit trail (audit:view)');
  const sub = area.command('events').description('audit events, newest first');
  lsCommand(sub, events, {
    columns: ['seq', 'occurredAt', 'actorEmail', 'action', 'targetType', 'outcome', 'id'],
    filters: [
      text('--actor <who>', 'actor', 'email or user id'),
      text('--action <action>', 'action', 'exact action, or a prefix ending in .* (users.*)'),
      text('--target-type <type>', 'targetType', 'kind of record acted on'),
      text('--target-id <id>', 'targetId', 'id of the record acted on'),
      text('--outcome <outcome>', 'outcome', 'success or failure'),
      text('--from <time>', 'from', 'ISO-8601 date-time, inclusive'),
      text('--to <time>', 'to', 'ISO-8601 date-time, inclusive'),
    ],
  });
  getCommand(sub, events);
  apiAction(
    area.command('verify').description('walk the whole hash chain; exit 1 when a link is broken'),
    async (context) => {
      const { data } = await context.api.call('GET', '/api/audit/verify');
      context.out.record(data);
      if (!data.valid) process.exitCode = 1;
    },
  );
}
