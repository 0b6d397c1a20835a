import { CHAT_USE } from '../../domain/permissions.ts';
import { chatMessagesOf } from '../../projections/tourChat/tourChat.queries.ts';
import type { OpenedTour } from '../../domain/tours/tour.types.ts';
import { toursContract } from '../../domain/contracts/tours.contract.ts';
import type { App } from '../http/routeContext.ts';
import { can, requireActor, type Actor } from '../http/auth.ts';
import { iso } from './tourAnswers.ts';

/** The tour's chat between the shipper, the carrier and the driver. */
export function tourChatRoutes(app: App) {
  const { runner, marketplace } = app.platform;
  const { db } = app.platform.database;
  const visibleTour = async (actor: Actor, tourId: string): Promise<OpenedTour> =>
    marketplace.visibleTour(actor, tourId);

  app.get(
    '/tours/:id/chat',
    {
      schema: { tags: ['tours'], summary: "The tour's chat, oldest first", ...toursContract.chat },
      onRequest: can(CHAT_USE),
    },
    async (request) => {
      const tour = await visibleTour(requireActor(request), request.params.id);
      const rows = await chatMessagesOf(db, tour.tourId, 1000);
      return rows.map((row) => ({
        id: row.id,
        user: { id: row.user_id, name: row.user_name },
        organizationId: row.organization_id,
        text: row.text,
        at: iso(row.posted_at)!,
      }));
    },
  );

  app.post(
    '/tours/:id/chat',
    {
      schema: { tags: ['tours'], summary: 'Post to the tour chat', ...toursContract.postChat },
      onRequest: can(CHAT_USE),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const { message } = request.body;
      const user = await app.platform.identity.loadUser(actor.userId);
      const { id, position } = await marketplace.postChatMessage(
        { actor, requestId: request.id },
        request.params.id,
        message,
        user?.name ?? 'User',
        new Date().toISOString(),
      );
      await runner.waitFor(['tourChat'], position);
      return reply.code(201).send({ id });
    },
  );
}
