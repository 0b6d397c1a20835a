import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { servicesContract } from '../../domain/contracts/services.contract.ts';
import { ACCOUNT_CHANGE_CARRIER, ACCOUNT_GET_CARRIER } from '../../domain/permissions.ts';
import { distanceMiles } from '../../domain/tours/geo.ts';
import type { App } from '../http/routeContext.ts';
import { can, requireActor } from '../http/auth.ts';
import { errorHandler } from '../http/errors.ts';
import { ProviderUnavailableError } from '../integrations/eld/provider.ts';

/**
 * The carrier's ELD integrations (`/api/docs`: organization-services, services/{id}/trucks): the
 * catalogue with the organization's installations, installing and updating credentials (checked
 * with the provider first; the secret is never answered), and the live trucks of an installation.
 * Guards: reading is ACCOUNT_GET_CARRIER (704), changing ACCOUNT_CHANGE_CARRIER (706): the ELD
 * service is part of the carrier's account, and only carrier users hold these codes.
 */
export async function servicesRoutes(app: App) {
  const { runner, eld } = app.platform;
  const views = ['organizationServices'];
  const catalogueEntry = async (organizationId: string | null, serviceId: string) =>
    (await eld.services.catalogue(organizationId)).find((entry) => entry.id === serviceId)!;

  // A provider that asks us to wait: the caller is told how long, as the provider told us.
  app.setErrorHandler(function (
    this: unknown,
    error: FastifyError | Error,
    request: FastifyRequest,
    reply: FastifyReply,
  ) {
    if (error instanceof ProviderUnavailableError && error.retryAfterSeconds)
      reply.header('retry-after', String(error.retryAfterSeconds));
    return errorHandler.call(this, error, request, reply);
  });

  app.get(
    '/organization-services',
    {
      schema: {
        tags: ['services'],
        summary:
          "The ELD services, with the caller's organization's installations (status null until installed)",
        ...servicesContract.catalogue,
      },
      // Open while the organization waits for its vetting (Pending): the user's own account.
      config: { whilePending: true },
      onRequest: can(ACCOUNT_GET_CARRIER),
    },
    async (request) => eld.services.catalogue(requireActor(request).organizationId),
  );

  app.post(
    '/organization-services',
    {
      schema: {
        tags: ['services'],
        summary: 'Install an ELD service: the credentials are checked with the provider first',
        ...servicesContract.install,
      },
      onRequest: can(ACCOUNT_CHANGE_CARRIER),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const { position } = await eld.services.install(
        { actor, requestId: request.id },
        request.body,
        now,
      );
      await runner.waitFor(views, position);
      return reply
        .code(201)
        .send(await catalogueEntry(actor.organizationId, request.body.serviceId));
    },
  );

  app.put(
    '/organization-services',
    {
      schema: {
        tags: ['services'],
        summary: "Change an installed ELD service's credentials (checked with the provider first)",
        ...servicesContract.update,
      },
      onRequest: can(ACCOUNT_CHANGE_CARRIER),
    },
    async (request) => {
      const actor = requireActor(request);
      const now = new Date().toISOString();
      const { organizationId, serviceId, position } = await eld.services.update(
        { actor, requestId: request.id },
        request.body,
        now,
      );
      await runner.waitFor(views, position);
      return catalogueEntry(organizationId, serviceId);
    },
  );

  app.get(
    '/services/:id/trucks',
    {
      schema: {
        tags: ['services'],
        summary:
          "The trucks of the organization's installed ELD service (its id, or the provider's)",
        ...servicesContract.trucks,
      },
      onRequest: can(ACCOUNT_GET_CARRIER),
    },
    async (request) => {
      const service = await eld.services.find(
        requireActor(request).organizationId,
        request.params.id,
      );
      const trucks = await eld.services.fleetFor(service);
      return trucks.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }));
    },
  );

  app.get(
    '/services/:serviceId/trucks/:latitude/:longitude',
    {
      schema: {
        tags: ['services'],
        summary: 'The same trucks, nearest to the point first, with their distance in miles',
        ...servicesContract.nearestTrucks,
      },
      onRequest: can(ACCOUNT_GET_CARRIER),
    },
    async (request) => {
      const { serviceId, latitude, longitude } = request.params;
      const service = await eld.services.find(requireActor(request).organizationId, serviceId);
      const trucks = await eld.services.fleetFor(service);
      return trucks
        .map((truck) => ({ truck, miles: distanceMiles({ latitude, longitude }, truck) }))
        .sort(
          (a, b) =>
            a.miles - b.miles || a.truck.name.localeCompare(b.truck.name, 'en', { numeric: true }),
        )
        .map(({ truck, miles }) => ({ ...truck, distance: Math.round(miles * 10) / 10 }));
    },
  );
}
