import {
  WebhookBodySchema,
  WebhookIdParamsSchema as IdParams,
  WebhookReplayBodySchema,
  webhooksAnswers,
} from '../../domain/contracts/webhooks.contract.ts';
import { USER_CREATE } from '../../domain/permissions.ts';
import { ForbiddenError, ValidationError } from '../../domain/shared/errors.ts';
import { can, requireActor } from '../http/auth.ts';
import type { App } from '../http/routeContext.ts';
import { activeFilters, TableQuery, tableAnswer } from '../http/table.ts';
import { DELIVERY_STATUSES } from '../webhooks/webhooks.ts';

/**
 * Webhooks (docs/api.md "Webhooks"): the endpoints of the caller's organization, for its users who
 * manage users (shipper and carrier managers). Another organization's webhook answers 404.
 */
export async function webhooksRoutes(app: App) {
  const { webhooks } = app.platform;

  app.get(
    '/webhooks',
    {
      schema: {
        tags: ['webhooks'],
        summary: "The organization's webhook endpoints, each with its last attempted delivery",
        response: webhooksAnswers.list,
      },
      onRequest: can(USER_CREATE),
    },
    async (request) => webhooks.list(requireActor(request).organizationId),
  );

  app.post(
    '/webhooks',
    {
      schema: {
        tags: ['webhooks'],
        summary:
          'Add an endpoint: {url, events, description?}; answers its signing secret, only here. https only; private addresses need WEBHOOK_ALLOW_PRIVATE=1; at most 10 per organization (409)',
        body: WebhookBodySchema,
        response: webhooksAnswers.create,
      },
      // A Superadmin belongs to no organization: refused before the body is read.
      onRequest: [
        can(USER_CREATE),
        async (request) => {
          if (!requireActor(request).organizationId)
            throw new ForbiddenError('Only members of an organization have webhooks');
        },
      ],
    },
    async (request, reply) => {
      const actor = requireActor(request);
      return reply.code(201).send(await webhooks.create(actor, request.body));
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Delete an endpoint and its queued deliveries',
        params: IdParams,
        response: webhooksAnswers.delete,
      },
      onRequest: can(USER_CREATE),
    },
    async (request, reply) => {
      await webhooks.remove(requireActor(request).organizationId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags: ['webhooks'],
        summary:
          "An endpoint's deliveries, newest first (table protocol; filter `status`, search by type or event id)",
        params: IdParams,
        querystring: TableQuery,
        response: webhooksAnswers.deliveries,
      },
      onRequest: can(USER_CREATE),
    },
    async (request) => {
      const query = request.query;
      const statuses = (activeFilters(query).get('status') ?? []).map(String);
      const unknown = statuses.find((status) => !DELIVERY_STATUSES.includes(status as never));
      if (unknown !== undefined)
        throw ValidationError.field('filters', `status is one of ${DELIVERY_STATUSES.join(', ')}`);
      const { total, rows } = await webhooks.deliveries(
        requireActor(request).organizationId,
        request.params.id,
        { page: query.page, pageSize: query.pageSize, search: query.search, statuses },
      );
      return tableAnswer(query, total, rows, []);
    },
  );

  app.post(
    '/webhooks/:id/replay',
    {
      schema: {
        tags: ['webhooks'],
        summary:
          "Send the organization's events since `from` again, in log order, with their ids (at most 10 000; none still waiting for this endpoint); one replay at a time (409 while one waits)",
        params: IdParams,
        body: WebhookReplayBodySchema,
        response: webhooksAnswers.replay,
      },
      onRequest: can(USER_CREATE),
    },
    async (request, reply) => {
      const answer = await webhooks.replay(
        requireActor(request).organizationId,
        request.params.id,
        new Date(request.body.from),
      );
      return reply.code(202).send(answer);
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        tags: ['webhooks'],
        summary: 'Send a `webhook.test` event to this endpoint',
        params: IdParams,
        response: webhooksAnswers.test,
      },
      onRequest: can(USER_CREATE),
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await webhooks.test(requireActor(request).organizationId, request.params.id)),
  );
}
