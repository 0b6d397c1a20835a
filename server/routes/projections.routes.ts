import { projectionsContract } from '../../domain/contracts/projections.contract.ts';
import { SUPER_ADMIN } from '../../domain/permissions.ts';
import { ConflictError, NotFoundError } from '../../domain/shared/errors.ts';
import type { App } from '../http/routeContext.ts';
import { can } from '../http/auth.ts';
import { reactorLags } from '../reactors/reactorStatus.ts';

const unknownProjection = (name: string) => new NotFoundError(`No read model is called ${name}`);

/**
 * Read models in trouble (Superadmin): where each stands, the events it set aside, retrying one of
 * them, and rebuilding one beside the live tables; and how far behind each reactor on the log is.
 */
export async function projectionsRoutes(app: App) {
  const { runner } = app.platform;

  app.get(
    '/admin/projections',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Each read model: status, position, lag in events, parked events, a rebuild under way',
        ...projectionsContract.list,
      },
      onRequest: can(SUPER_ADMIN),
    },
    async () => runner.adminStatus(),
  );

  app.get(
    '/admin/reactors',
    {
      schema: {
        tags: ['admin'],
        summary: 'Each reactor on the log: status, checkpoint position, lag in events',
        ...projectionsContract.reactors,
      },
      onRequest: can(SUPER_ADMIN),
    },
    async () => reactorLags(app.platform.database, app.platform.store),
  );

  app.get(
    '/admin/projections/:name/parked',
    {
      schema: {
        tags: ['admin'],
        summary: 'The events a read model set aside because applying them failed',
        ...projectionsContract.parked,
      },
      onRequest: can(SUPER_ADMIN),
    },
    async (request) => {
      const parked = await runner.parked(request.params.name);
      if (!parked) throw unknownProjection(request.params.name);
      return parked;
    },
  );

  app.post(
    '/admin/projections/:name/parked/:eventId/retry',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Applies a parked event again: 200 when it applies (it leaves the list), 409 with the error when it still fails',
        ...projectionsContract.retry,
      },
      onRequest: can(SUPER_ADMIN),
    },
    async (request) => {
      const { name, eventId } = request.params;
      const result = await runner.retryParked(name, eventId);
      if (result.status === 'unknown')
        throw new NotFoundError(`The read model ${name} has no parked event ${eventId}`);
      if (result.status === 'failed') throw new ConflictError(result.error);
      return { eventId, applied: true as const };
    },
  );

  app.post(
    '/admin/projections/:name/rebuild',
    {
      schema: {
        tags: ['admin'],
        summary: 'Rebuilds a read model beside the live one and swaps it in when caught up',
        ...projectionsContract.rebuild,
      },
      onRequest: can(SUPER_ADMIN),
    },
    async (request, reply) => {
      const { name } = request.params;
      if (!(await runner.requestRebuild(name))) throw unknownProjection(name);
      return reply.code(202).send({ projection: name, status: 'rebuilding' as const });
    },
  );
}
