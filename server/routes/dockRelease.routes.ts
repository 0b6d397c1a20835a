/**
 * Who comes to the dock (docs/api.md "Pickup release"): the assigned driver's release code, the
 * shipper's dock links, and the dock's page behind a link (no sign-in, dockPage.routes.ts). The
 * dock enters the code the driver shows (and may type the tractor number it sees); the answer is
 * released or held with the reasons, recorded in the tour's stream with the evidence. A hold alerts
 * both sides' dispatchers at once: the sockets and webhooks hear the event, and their dispatchers
 * get an e-mail.
 */
import { Role } from '../../domain/catalog.ts';
import { DockLinkBody, dockReleaseContract } from '../../domain/contracts/dockRelease.contract.ts';
import { TOUR_ASSIGNEE, TOURS_ALL } from '../../domain/permissions.ts';
import { ForbiddenError, NotFoundError } from '../../domain/shared/errors.ts';
import { dockLinkOfTourByHash } from '../../projections/dockLinks/dockLinks.queries.ts';
import { hashShareToken } from '../auth/shareTokens.ts';
import { can, isSuperadmin, requireActor } from '../http/auth.ts';
import { parseWith } from '../http/parseWith.ts';
import type { App } from '../http/routeContext.ts';
import { DOCK_VIEWS, dockLinkMail } from './dockRelease.shared.ts';

export {
  DOCK_VIEWS,
  dockLinkMail,
  eldDistanceOf,
  holdReasonText,
  pickupHeldMail,
} from './dockRelease.shared.ts';

/** The signed-in side: the driver's release code, and the shipper's dock links (the dock's own page is dockPage.routes.ts). */
export async function dockReleaseRoutes(app: App) {
  const { runner, marketplace, identity, mailer, config } = app.platform;
  const { db } = app.platform.database;

  app.get(
    '/tours/:id/release-code',
    {
      schema: {
        tags: ['tours'],
        summary:
          "The assigned driver's release code (6 digits, a new one every 30 s), from 1 hour before the pickup appointment until the truck leaves the pickup",
        ...dockReleaseContract.releaseCode,
      },
      onRequest: can(TOUR_ASSIGNEE),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      if (isSuperadmin(actor))
        throw new ForbiddenError('Only the assigned driver sees the release code');
      const code = await marketplace.releaseCode(
        { actor, requestId: request.id },
        request.params.id,
        new Date(),
      );
      reply.header('cache-control', 'no-store');
      return code;
    },
  );

  app.post(
    '/tours/:id/dock-link',
    {
      schema: {
        tags: ['tours'],
        summary:
          "A link for the pickup dock (the tour's shipper): shows who should come and takes the driver's release code; e-mailed to the given address",
        ...dockReleaseContract.createLink,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      if (isSuperadmin(actor) || actor.roleId !== Role.Shipper)
        throw new ForbiddenError("Only the tour's shipper makes a dock link");
      const body = parseWith(DockLinkBody, request.body ?? {});
      const { token, expiresAt, tour, position } = await marketplace.createDockLink(
        { actor, requestId: request.id },
        request.params.id,
        new Date().toISOString(),
      );
      await runner.waitFor(DOCK_VIEWS, position);
      const url = `/dock/${token}`;
      if (!body.email) return reply.code(201).send({ token, url, expiresAt });
      // The link exists whatever happens to the e-mail: the answer says whether it went out.
      let emailed = true;
      try {
        const carrier = await identity.loadOrganization(tour.carrierOrganizationId);
        await mailer.send(
          dockLinkMail(body.email, {
            // From the configured PUBLIC_URL, never the request's Host header.
            link: `${config.publicUrl}${url}`,
            loadGuid: tour.loadGuid,
            carrier: carrier?.name ?? 'the carrier',
            expiresAt,
          }),
        );
      } catch (err) {
        request.log.warn({ err }, 'dock link e-mail not sent');
        emailed = false;
      }
      return reply.code(201).send({ token, url, expiresAt, emailed });
    },
  );

  app.delete(
    '/tours/:id/dock-link/:token',
    {
      schema: {
        tags: ['tours'],
        summary: "Ends a dock link of the tour's shipper at once",
        ...dockReleaseContract.revokeLink,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      if (isSuperadmin(actor) || actor.roleId !== Role.Shipper)
        throw new ForbiddenError("Only the tour's shipper revokes its dock links");
      const tour = await marketplace.visibleTour(actor, request.params.id);
      const link = await dockLinkOfTourByHash(
        db,
        tour.tourId,
        hashShareToken(request.params.token),
      );
      if (!link || link.revoked_at !== null) throw new NotFoundError('Link not found');
      const position = await marketplace.revokeDockLink(
        { actor, requestId: request.id },
        tour.tourId,
        link.id,
        new Date().toISOString(),
      );
      await runner.waitFor(DOCK_VIEWS, position);
      return reply.code(204).send(null);
    },
  );
}
