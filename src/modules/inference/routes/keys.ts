import { Type } from 'typebox';
import type { GatewayModule } from '../../../core/app.js';
import { areaAccess } from '../../../core/auth/area-access.js';
import { DataOf, PageOf, Success } from '../../../core/http-schemas.js';
import type { ConsumerKeys } from '../consumer-keys.js';
import {
  ConsumerKey,
  ConsumerKeyChange,
  IssuedConsumerKey,
  KeyListQuery,
  NewConsumerKey,
} from '../plane-schemas.js';

const { view, manage } = areaAccess('inference');
const tags = ['inference'];
/** Key ids are uuids; anything else is simply not found. */
const KeyParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** `/api/inference/keys`: the consumer keys of the data plane. */
export const keyRoutes: GatewayModule<{ keys: ConsumerKeys }> = async (app, { keys }) => {
  app.post(
    '',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Create a consumer key of the data plane (the key is answered only here)',
        description:
          'The key (`igk_…`) authenticates `/inference/…` calls as `Authorization: Bearer`, `x-api-key` or ' +
          '`x-goog-api-key`; it is never valid on `/api`. Only its hash is stored.',
        body: NewConsumerKey,
        response: { 201: DataOf(IssuedConsumerKey) },
      },
    },
    async (request, reply) =>
      reply.status(201).send({ data: await keys.create(request.actor, request.body) }),
  );

  app.get(
    '',
    {
      config: view,
      schema: {
        tags,
        summary: 'List consumer keys',
        querystring: KeyListQuery,
        response: { 200: PageOf(ConsumerKey) },
      },
    },
    async (request) => keys.list(request.query),
  );

  app.get(
    '/:id',
    {
      config: view,
      schema: {
        tags,
        summary: 'Get a consumer key',
        params: KeyParams,
        response: { 200: DataOf(ConsumerKey) },
      },
    },
    async (request) => ({ data: await keys.get(request.params.id) }),
  );

  app.patch(
    '/:id',
    {
      config: { ...manage, errors: [409] },
      schema: {
        tags,
        summary: 'Rename a consumer key or change the models it may use and its expiry',
        params: KeyParams,
        body: ConsumerKeyChange,
        response: { 200: DataOf(ConsumerKey) },
      },
    },
    async (request) => ({ data: await keys.update(request.actor, request.params.id, request.body) }),
  );

  app.delete(
    '/:id',
    {
      config: manage,
      schema: {
        tags,
        summary: 'Revoke a consumer key (its next request is refused on every gateway)',
        params: KeyParams,
        response: { 200: Success },
      },
    },
    async (request) => {
      await keys.revoke(request.actor, request.params.id);
      return { success: true };
    },
  );
};
