import { z } from 'zod';
import { GenericStatus, statusName } from '../../domain/catalog.ts';
import { LOAD_CREATE, LOAD_EDIT, LOAD_DELETE } from '../../domain/permissions.ts';
import {
  CancelLoadBodySchema,
  EditLoadBodySchema,
  LoadIdParamsSchema as IdParams,
  loadsAnswers,
  PostLoadBodySchema,
} from '../../domain/contracts/loads.contract.ts';
import {
  cancelLoadBodySchema,
  extendExpirationBodySchema,
  loadBodySchema,
  updateLoadBodySchema,
} from '../../domain/schemas/load.schema.ts';
import type { App } from '../http/routeContext.ts';
import { can, requireActor } from '../http/auth.ts';
import { parseWith } from '../http/parseWith.ts';
import { callerOf, withPlaces } from './loadRequests.ts';

/** The shipper's commands on a load: posting it, editing it or extending its offer, and cancelling it. */
export function loadCommandRoutes(app: App) {
  const { marketplace } = app.platform;

  app.post(
    '/loads',
    {
      schema: {
        tags: ['loads'],
        summary: 'Post a load (specification section 3, "Load (sent on create)")',
        body: PostLoadBodySchema,
        response: loadsAnswers.post,
      },
      onRequest: can(LOAD_CREATE),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const body = withPlaces(parseWith(loadBodySchema(now), request.body));
      const { id, guid, position } = await marketplace.postLoad(
        callerOf(request, actor),
        body,
        now,
      );
      app.consistency.wrote(request, reply, position);
      return reply.code(201).send({ id, guid });
    },
  );

  app.put(
    '/loads',
    {
      schema: {
        tags: ['loads'],
        summary: 'Edit a load (body plus loadId) or extend its offer ({loadId, newExpiration})',
        body: EditLoadBodySchema,
        response: loadsAnswers.edit,
      },
      onRequest: can(LOAD_EDIT),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const raw = request.body as Record<string, unknown>;
      let position;
      if ('newExpiration' in raw && !('locations' in raw)) {
        const id = z.uuid().safeParse(raw.loadId);
        const current = id.success ? await marketplace.loadLoad(id.data) : null;
        const { loadId, expiration, expirationTimezone } = parseWith(
          extendExpirationBodySchema(now, current?.details.expirationTimezone),
          raw,
        );
        position = await marketplace.extendExpiration(
          callerOf(request, actor),
          loadId,
          expiration,
          expirationTimezone ?? undefined,
          now,
        );
      } else {
        const { loadId, ...body } = parseWith(updateLoadBodySchema(now), raw);
        position = await marketplace.updateLoad(
          callerOf(request, actor),
          loadId,
          withPlaces(body),
          now,
        );
      }
      app.consistency.wrote(request, reply, position);
      return { message: 'Load updated' };
    },
  );

  app.put(
    '/loads/:id/status',
    {
      schema: {
        tags: ['loads'],
        summary: 'Cancel a load with a message ({status: 7, message})',
        params: IdParams,
        body: CancelLoadBodySchema,
        response: loadsAnswers.cancel,
      },
      onRequest: can(LOAD_EDIT, LOAD_DELETE),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const { message } = parseWith(cancelLoadBodySchema, request.body);
      const position = await marketplace.cancelLoad(
        callerOf(request, actor),
        request.params.id,
        message,
        now,
      );
      app.consistency.wrote(request, reply, position);
      return {
        id: request.params.id,
        status: GenericStatus.Canceled,
        statusName: statusName(GenericStatus.Canceled),
        message: 'Load canceled',
      };
    },
  );
}
