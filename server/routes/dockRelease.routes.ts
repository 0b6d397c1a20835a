/**
 * Who comes to the dock (docs/api.md "Pickup release"): the assigned driver's release code, the
 * shipper's dock links, and the dock's page behind a link (no sign-in). The dock enters the code the
 * driver shows (and may type the tractor number it sees); the answer is released or held with the
 * reasons, recorded in the tour's stream with the evidence. A hold alerts both sides' dispatchers at
 * once: the sockets and webhooks hear the event, and their dispatchers get an e-mail.
 */
import { GenericStatus, Role } from '../../domain/catalog.ts';
import {
  DockLinkBody,
  DockReleaseBody,
  dockReleaseContract,
  type DockView,
  type HoldReason,
} from '../../domain/contracts/dockRelease.contract.ts';
import { TOUR_ASSIGNEE, TOURS_ALL } from '../../domain/permissions.ts';
import { ForbiddenError, NotFoundError } from '../../domain/shared/errors.ts';
import {
  DOCK_LINK_MAX_TRIES,
  DOCK_LINK_NOT_FOUND,
  DOCK_MAX_ELD_MILES,
} from '../../domain/tours/dockRelease.decide.ts';
import { distanceMiles } from '../../domain/tours/geo.ts';
import type { OpenedTour, PickupHoldReason, TourEvent } from '../../domain/tours/tour.types.ts';
import {
  dockLinkOfTourByHash,
  liveDockLinkByHash,
} from '../../projections/dockLinks/dockLinks.queries.ts';
import type { DB } from '../../storage/schema.ts';
import type { Kysely } from 'kysely';
import { hashShareToken } from '../auth/shareTokens.ts';
import { pickupStopOf } from '../commands/tourDock.ts';
import { can, isSuperadmin, requireActor } from '../http/auth.ts';
import { parseWith } from '../http/parseWith.ts';
import type { App } from '../http/routeContext.ts';
import { MARKETPLACE_VIEWS } from '../../projections/marketplace/marketplace.views.ts';

/** The read models the dock routes wait for, so that a link works (or stops) as soon as the call answers. */
export const DOCK_VIEWS = ['dockLinks'];

/** The reasons of a hold, as sentences for the dock and the dispatchers (English, like the e-mails). */
export const holdReasonText: Record<PickupHoldReason, string> = {
  wrong_code: "The code is not the assigned driver's current release code",
  tractor_mismatch: 'The tractor number is not the one the carrier assigned',
  truck_far_away: `The truck's ELD puts it more than ${DOCK_MAX_ELD_MILES} miles from the pickup`,
};
const reasonsOf = (codes: readonly PickupHoldReason[]): HoldReason[] =>
  codes.map((code) => ({ code, text: holdReasonText[code] }));

const iso = (value: unknown): string => new Date(value as string).toISOString();
const round1 = (miles: number) => Math.round(miles * 10) / 10;

/** Miles from the truck's last ELD position to the tour's pickup, with when it was recorded; nulls without one. */
export async function eldDistanceOf(
  db: Kysely<DB>,
  tour: OpenedTour,
): Promise<{ miles: number | null; at: string | null }> {
  const pickup = pickupStopOf(tour);
  const last = await db
    .selectFrom('tour_positions_view')
    .select(['latitude', 'longitude', 'recorded_at'])
    .where('tour_id', '=', tour.tourId)
    .where('source', '=', 'eld')
    .orderBy('recorded_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!last || !pickup) return { miles: null, at: null };
  return {
    miles: round1(
      distanceMiles({ latitude: Number(last.latitude), longitude: Number(last.longitude) }, pickup),
    ),
    at: iso(last.recorded_at),
  };
}

/** The e-mail that carries a dock link to the pickup (English, like the product's other e-mails). */
export const dockLinkMail = (
  to: string,
  facts: { link: string; loadGuid: string; carrier: string; expiresAt: string },
) => ({
  to,
  subject: `Pickup release for load ${facts.loadGuid}`,
  text:
    `Hello,\n\nThe truck of ${facts.carrier} will pick up load ${facts.loadGuid} at your dock. ` +
    'Before loading, open this page, check the driver and truck it shows, and enter the 6-digit ' +
    `release code the driver shows you:\n${facts.link}\n\n` +
    `The link works until ${facts.expiresAt.slice(0, 16).replace('T', ' ')} UTC, unless the shipper ends it earlier.`,
});

/** The e-mail that tells a dispatcher the dock held a pickup. */
export const pickupHeldMail = (to: string, facts: { loadGuid: string; reasons: HoldReason[] }) => ({
  to,
  subject: `Pickup held for load ${facts.loadGuid}`,
  text:
    `Hello,\n\nThe pickup dock held load ${facts.loadGuid}:\n` +
    `${facts.reasons.map((reason) => `- ${reason.text}`).join('\n')}\n\n` +
    "The load is not released until the shipper's dispatcher clears or cancels it.",
});

export async function dockReleaseRoutes(app: App) {
  const { runner, marketplace, identity, mailer, config } = app.platform;
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
