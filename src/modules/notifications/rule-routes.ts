import type { GatewayModule } from '../../core/app.js';
import { areaAccess } from '../../core/auth/area-access.js';
import { DataOf, IdParams, PageOf, Success } from '../../core/http-schemas.js';
import type { RuleService } from './rules.js';
import { Rule, RuleCreate, RuleListQuery, RuleUpdate } from './schemas.js';

const { view, manage } = areaAccess('notifications');
const tags = ['notifications'];

/** Alert rules: an event, the channels it goes to, and optional filters, thresholds and reminders. */
export const ruleRoutes: GatewayModule<{ rules: RuleService }> = async (app, { rules }) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List alert rules',
        querystring: RuleListQuery,
        response: { 200: PageOf(Rule) },
      },
    },
    async (request) => rules.list(request.query),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [404, 409] },
      schema: {
        tags,
        summary: 'Create an alert rule',
        description:
          'Unknown `channelIds` → 404; filters, `withinDays` and `renotifyMinutes` must apply to the event (400).',
        body: RuleCreate,
        response: { 201: DataOf(Rule) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await rules.create(request.actor, request.body) }),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: { tags, summary: 'Get an alert rule', params: IdParams, response: { 200: DataOf(Rule) } },
    },
    async (request) => ({ data: await rules.get(request.params.id) }),
  );

  app.patch(
    '/:id',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Change an alert rule',
        description:
          'Only the fields given change; `channelIds` replaces the list; `null` clears an optional field.',
        params: IdParams,
        body: RuleUpdate,
        response: { 200: DataOf(Rule) },
      },
    },
    async (request) => ({ data: await rules.update(request.actor, request.params.id, request.body) }),
  );

  app.delete(
    '/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Delete an alert rule (its deliveries stay, queued ones are still sent)',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await rules.remove(request.actor, request.params.id);
      return { success: true };
    },
  );
};
