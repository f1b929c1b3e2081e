import type { GatewayModule } from '../../core/app.js';
import { areaAccess } from '../../core/auth/area-access.js';
import { DataOf, IdParams, PageOf, Success } from '../../core/http-schemas.js';
import type { ChannelService } from './channels.js';
import {
  Channel,
  ChannelChange,
  ChannelCreate,
  ChannelListQuery,
  ChannelTestResult,
  ChannelUpdate,
} from './schemas.js';

const { view, manage } = areaAccess('notifications');
const tags = ['notifications'];

/** Notification channels: webhook, Slack-compatible incoming webhook, email (SMTP). */
export const channelRoutes: GatewayModule<{ channels: ChannelService }> = async (app, { channels }) => {
  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List notification channels',
        querystring: ChannelListQuery,
        response: { 200: PageOf(Channel) },
      },
    },
    async (request) => channels.list(request.query),
  );

  app.post(
    '',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Create a notification channel',
        description:
          '`webhook`: `url`, optional `secret` (HMAC-SHA256 signing key) and `headers`; `slack`: `url`; ' +
          '`email`: `smtp`, `from`, `to`. Secrets are write-only.',
        body: ChannelCreate,
        response: { 201: DataOf(Channel) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await channels.create(request.actor, request.body) }),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a notification channel',
        params: IdParams,
        response: { 200: DataOf(Channel) },
      },
    },
    async (request) => ({ data: await channels.get(request.params.id) }),
  );

  app.patch(
    '/:id',
    {
      config: { ...manage, errors: [409, 422] },
      schema: {
        tags,
        summary: 'Change a notification channel',
        description:
          'Only the fields given change; `null` removes an optional secret (`secret`, `headers`, `smtp.password`). ' +
          'A new webhook `url` (scheme, host, port or path) drops the stored `secret` and `headers`, and a new SMTP ' +
          'server (`host`, `port`, `secure`, or a `starttls` no longer required) drops `smtp.password`, unless the ' +
          'same request gives them again; `droppedSecrets` names them.',
        params: IdParams,
        body: ChannelUpdate,
        response: { 200: ChannelChange },
      },
    },
    async (request) => channels.update(request.actor, request.params.id, request.body),
  );

  app.delete(
    '/:id',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Delete a notification channel and its deliveries',
        description: '409 `CHANNEL_IN_USE` while rules send to it.',
        params: IdParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await channels.remove(request.actor, request.params.id);
      return { success: true };
    },
  );

  app.post(
    '/:id/test',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Send a test message to the channel now',
        description:
          'Answers whether the channel took it; a failure is `ok: false` with the reason, not an error.',
        params: IdParams,
        response: { 200: DataOf(ChannelTestResult) },
      },
    },
    async (request) => ({ data: await channels.test(request.actor, request.params.id) }),
  );
};
