/**
 * The pickup dock's page behind a dock link (no sign-in, docs/api.md "Pickup release"): who should
 * come, and where the dock enters the driver's release code. A hold alerts both sides' dispatchers
 * at once: the sockets and webhooks hear the event, and their dispatchers get an e-mail.
 */
import { GenericStatus, Role } from '../../domain/catalog.ts';
import {
  DockReleaseBody,
  dockReleaseContract,
  type DockView,
} from '../../domain/contracts/dockRelease.contract.ts';
import { NotFoundError } from '../../domain/shared/errors.ts';
import { DOCK_LINK_MAX_TRIES, DOCK_LINK_NOT_FOUND } from '../../domain/tours/dockRelease.decide.ts';
import type { OpenedTour, TourEvent } from '../../domain/tours/tour.types.ts';
import { liveDockLinkByHash } from '../../projections/dockLinks/dockLinks.queries.ts';
import { MARKETPLACE_VIEWS } from '../../projections/marketplace/marketplace.views.ts';
import { hashShareToken } from '../auth/shareTokens.ts';
import { pickupStopOf } from '../commands/tourDock.ts';
import { parseWith } from '../http/parseWith.ts';
import type { App } from '../http/routeContext.ts';
import { eldDistanceOf, iso, pickupHeldMail, reasonsOf } from './dockRelease.shared.ts';

export async function dockPageRoutes(app: App) {
  const { runner, marketplace, identity, mailer } = app.platform;
  const { db } = app.platform.database;

  /** The live link a token names and its tour; the same 404 for unknown, expired and revoked. */
  const linkOf = async (token: string, now: Date) => {
    const link = await liveDockLinkByHash(db, hashShareToken(token), now);
    const tour = link ? await marketplace.loadTour(link.tour_id) : null;
    const entry = tour?.dockLinks?.find((candidate) => candidate.linkId === link?.id);
    if (!link || !tour || !entry || entry.revoked) throw new NotFoundError(DOCK_LINK_NOT_FOUND);
    return { link, tour, entry };
  };

  /** Both sides' dispatchers (the Active shipper and carrier users of the tour's organizations). */
  const dispatcherEmails = async (tour: OpenedTour) =>
    (
      await db
        .selectFrom('users_view')
        .select(['email', 'organization_id', 'role_id'])
        .where('status', '=', GenericStatus.Active)
        .where((eb) =>
          eb.or([
            eb.and([
              eb('organization_id', '=', tour.shipperOrganizationId),
              eb('role_id', '=', Role.Shipper),
            ]),
            eb.and([
              eb('organization_id', '=', tour.carrierOrganizationId),
              eb('role_id', '=', Role.Carrier),
            ]),
          ]),
        )
        .execute()
    ).map((row) => row.email);

  app.get(
    '/dock/:token',
    {
      schema: {
        tags: ['tours'],
        summary:
          "The pickup dock's page (no sign-in): the carrier, the driver's first name, the truck, its ELD distance, the pickup window and whether it was released",
        ...dockReleaseContract.view,
      },
      config: { public: true, rateLimit: { max: 60, timeWindow: '1 minute' } },
    },
    async (request, reply): Promise<DockView> => {
      const { link, tour, entry } = await linkOf(request.params.token, new Date());
      const [load, carrier, eld] = await Promise.all([
        marketplace.loadLoad(tour.loadId),
        identity.loadOrganization(tour.carrierOrganizationId),
        eldDistanceOf(db, tour),
      ]);
      const pickup = pickupStopOf(tour);
      reply.header('cache-control', 'no-store');
      reply.header('referrer-policy', 'no-referrer');
      return {
        loadGuid: tour.loadGuid,
        carrier: carrier?.name ?? '',
        driverFirstName: tour.assigneeName?.trim().split(/\s+/)[0] ?? null,
        tractorNumber: tour.tractorNumber ?? null,
        trailerNumber: tour.trailerNumber ?? null,
        eldDistanceMiles: eld.miles,
        pickupWindow: {
          start: load?.details.pickupStart ?? '',
          end: load?.details.pickupEnd ?? load?.details.pickupStart ?? '',
          timezone: load?.details.pickupTimezone ?? 'UTC',
        },
        pickup: {
          name: pickup?.name ?? '',
          city: pickup?.city ?? null,
          state: pickup?.state ?? null,
        },
        state: entry.state,
        reasons: entry.state === 'held' ? reasonsOf(entry.reasons ?? []) : [],
        triesLeft: Math.max(0, DOCK_LINK_MAX_TRIES - entry.attempts),
        expiresAt: iso(link.expires_at),
      };
    },
  );

  app.post(
    '/dock/:token/release',
    {
      schema: {
        tags: ['tours'],
        summary:
          "The dock enters the driver's release code (and may type the tractor number it sees): released, or held with the reasons; 10 tries per link",
        ...dockReleaseContract.release,
      },
      config: { public: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const now = new Date();
      const { link, tour } = await linkOf(request.params.token, now);
      const body = parseWith(DockReleaseBody, request.body);
      const eld = await eldDistanceOf(db, tour);
      const result = await marketplace.recordDockRelease(
        tour,
        link.id,
        {
          code: body.code,
          tractorNumber: body.tractorNumber,
          eldDistanceMiles: eld.miles,
          eldPositionAt: eld.at,
        },
        now,
      );
      // The sockets and webhooks hear the outcome once the tours' read model has it.
      await runner.waitFor(MARKETPLACE_VIEWS, result.position);
      reply.header('cache-control', 'no-store');
      const outcome = result.events.at(-1) as TourEvent | undefined;
      if (outcome?.type !== 'PickupHeld') return { state: 'released' as const };
      const reasons = reasonsOf(outcome.data.reasons);
      // Both sides' dispatchers hear of a hold at once; a lost e-mail leaves the hold as it is.
      for (const to of await dispatcherEmails(tour)) {
        try {
          await mailer.send(pickupHeldMail(to, { loadGuid: tour.loadGuid, reasons }));
        } catch (err) {
          request.log.warn({ err }, 'pickup hold e-mail not sent');
        }
      }
      return { state: 'held' as const, reasons };
    },
  );
}
