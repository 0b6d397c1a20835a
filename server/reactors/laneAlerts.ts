/** Lane alerts: the reactor that matches each posted or reopened load against the saved searches. */
import { GenericStatus } from '../../domain/catalog.ts';
import { evolveLoad, initialLoad } from '../../domain/loads/load.decide.ts';
import {
  loadStream,
  type LoadEvent,
  type LoadExpirationExtended,
  type LoadOpenedToMarketplace,
  type LoadPosted,
  opensAtOf,
} from '../../domain/loads/load.types.ts';
import { readCarrierPreferences } from '../commands/carrierPreferences.ts';
import { hasAny, LOADS_CARRIER, permissionsFor } from '../../domain/permissions.ts';
import { matchesLane } from '../../domain/searches/lane.ts';
import { organizationsProjection } from '../../projections/organizations/organizations.projection.ts';
import { organizationNameAndStatus } from '../../projections/organizations/organizations.queries.ts';
import {
  criteriaOfRow,
  savedSearchesProjection,
} from '../../projections/savedSearches/savedSearches.projection.ts';
import { activeSearches } from '../../projections/savedSearches/savedSearches.queries.ts';
import type { SavedSearchRow } from '../../projections/savedSearches/savedSearches.tables.ts';
import { usersOfOrganizations } from '../../projections/users/users.queries.ts';
import { reactorCheckpointOf } from '../../storage/checkpoints.ts';
import { startReactor, type ReactorDefinition } from '../../storage/reactor.ts';
import {
  comparePositions,
  type LogPosition,
  type RecordedEvent,
} from '../eventstore/eventStore.ts';
import { laneAlertEmails } from './laneAlertEmails.ts';
import {
  loadPayload,
  type LaneAlert,
  type LaneAlertOptions,
  type LaneAlerts,
  type Load,
  type Recipient,
} from './laneAlertMessages.ts';

export type {
  AlertPlace,
  LaneAlert,
  LaneAlertOptions,
  LaneAlerts,
  RealtimeEmitter,
} from './laneAlertMessages.ts';

/** Its checkpoint's name in `reactor_checkpoints`; its lock is `reactor:laneAlerts`, as before it had one. */
export const LANE_ALERTS_REACTOR = 'laneAlerts';
const READ_MODELS = ['savedSearches', 'users', 'organizations'] as const;
const CHANGES_SEARCHES: ReadonlySet<string> = new Set(savedSearchesProjection.handles);
const CHANGES_ORGANIZATIONS: ReadonlySet<string> = new Set(organizationsProjection.handles);
/** How often a process that does not lead looks at the checkpoint in `waitFor`. */
const CHECKPOINT_POLL_MS = 50;

/**
 * Lane alerts (issue 5): when a load is posted, or a paused one reopens, every saved search it
 * matches alerts the Active users of that carrier organization who may see the marketplace: at once
 * over the socket (`lane:alert` to `user:<id>`), and by e-mail at most once a minute per user, one
 * e-mail listing every alert since the last (laneAlertEmails.ts). Pending e-mails live in memory: a
 * restart drops them, the socket alerts having gone out already.
 *
 * A reactor on the log (storage/reactor.ts), checkpointed as `laneAlerts`: with several processes on
 * one PostgreSQL only the holder of its lock alerts, so no one hears of a load twice. It starts, the
 * first time, at the head of the log; after a restart (or in the process that takes over) it goes
 * on from its checkpoint, so a load posted meanwhile is alerted once it is back, if that load is
 * still open then: the events from before this process began to lead are matched against the load
 * as its stream stands now, and each such load alerts once.
 */
export async function startLaneAlerts(options: LaneAlertOptions): Promise<LaneAlerts> {
  const { database, store, mailer, logger } = options;
  const { db } = database;
  const clock = options.clock ?? (() => new Date());
  const emailEveryMs = options.emailEveryMs ?? 60_000;
  const emails = laneAlertEmails({ mailer, logger, clock, emailEveryMs });
  const { flush } = emails;
  // A runner without one of these read models would make every load wait for its timeout.
  const readModels = READ_MODELS.filter(
    (name) =>
      options.projections?.projections?.some((projection) => projection.name === name) ?? true,
  );
  /** The head of the log when this process began to lead: events up to it were posted while no one alerted. */
  let ledFrom: LogPosition | null = null;
  /** The loads alerted while catching up (each once, as it stands now). */
  const recalled = new Set<string>();

  /** The load as its stream stands now, if it is on the market. */
  const openLoad = async (loadId: string): Promise<Load | null> => {
    const { events } = await store.readStream<LoadEvent>(loadStream(loadId));
    const state = events.reduce(evolveLoad, initialLoad());
    if (!state.posted || state.status !== GenericStatus.Created) return null;
    const preferredOnly =
      !state.openedToMarketplace && opensAtOf(state.postedAt, state.details.audience) !== null;
    return {
      loadId: state.loadId,
      guid: state.guid,
      shipperOrganizationId: state.shipperOrganizationId,
      details: state.details,
      ...(preferredOnly ? { stage: 'preferred' as const } : {}),
    };
  };

  const loadOf = async (event: RecordedEvent): Promise<Load | null> => {
    const live = !ledFrom || comparePositions(event.position, ledFrom) > 0;
    if (live) recalled.clear();
    let loadId: string;
    if (event.type === 'LoadPosted') {
      const { data } = event as unknown as LoadPosted;
      // Posted a moment ago: on the market as posted.
      if (live) {
        const { guid, shipperOrganizationId, details } = data;
        const preferredOnly = opensAtOf(data.postedAt, details.audience) !== null;
        return {
          loadId: data.loadId,
          guid,
          shipperOrganizationId,
          details,
          ...(preferredOnly ? { stage: 'preferred' as const } : {}),
        };
      }
      loadId = data.loadId;
    } else if (event.type === 'LoadOpenedToMarketplace') {
      // The others hear of it now, as of a new load (the preferred heard at its posting).
      const load = await openLoad((event as unknown as LoadOpenedToMarketplace).data.loadId);
      return load ? { ...load, stage: 'opened' } : null;
    } else if (
      event.type === 'LoadExpirationExtended' &&
      (event as unknown as LoadExpirationExtended).data.reopened
    ) {
      loadId = (event as unknown as LoadExpirationExtended).data.loadId;
    } else return null;
    if (!live && recalled.has(loadId)) return null;
    const load = await openLoad(loadId);
    if (load && !live) recalled.add(loadId);
    return load;
  };

  /**
   * What every load is matched against, read once and kept until an event that changes it passes
   * through this reactor (which reads the log in order): the saved searches of Active organizations
   * and the organizations' statuses. Kept only when read after the read models reached the load, and
   * forgotten whenever this process begins to lead (it did not see the events before).
   */
  let searches: Promise<SavedSearchRow[]> | null = null;
  const statuses = new Map<string, Promise<number | undefined>>();
  const forgetAll = () => {
    searches = null;
    statuses.clear();
  };
  const forget = (event: RecordedEvent) => {
    if (CHANGES_SEARCHES.has(event.type)) searches = null;
    if (CHANGES_ORGANIZATIONS.has(event.type)) forgetAll();
  };
  const cached = <T>(
    caught: boolean,
    keep: (value: Promise<T>) => void,
    read: () => Promise<T>,
  ): Promise<T> => {
    const value = read();
    if (caught) keep(value);
    value.catch(forgetAll);
    return value;
  };

  /** Alerts the users of every saved search the load matches; whether anyone was alerted. */
  const alert = async (load: Load, position: LogPosition): Promise<boolean> => {
    const caught = (await options.projections?.waitFor(readModels, position, 5_000)) ?? true;
    const shipperStatus = await (statuses.get(load.shipperOrganizationId) ??
      cached(
        caught,
        (value) => statuses.set(load.shipperOrganizationId, value),
        async () => (await organizationNameAndStatus(db, load.shipperOrganizationId))?.status,
      ));
    if (shipperStatus !== GenericStatus.Active) return false;
    const active = await (searches ??
      cached(
        caught,
        (value) => {
          searches = value;
        },
        () => activeSearches(db),
      ));
    // Never a carrier the shipper blocked; a preferred-only load its preferred carriers only.
    const lists = await readCarrierPreferences(store, load.shipperOrganizationId);
    const others = active.filter(
      (row) =>
        row.organization_id !== load.shipperOrganizationId &&
        !lists.blocked.includes(row.organization_id) &&
        (load.stage === 'preferred'
          ? lists.preferred.includes(row.organization_id)
          : load.stage === 'opened'
            ? !lists.preferred.includes(row.organization_id)
            : true),
    );
    const lane = { stops: load.details.stops, equipment: load.details.equipment };
    const matching = others.filter((row) => matchesLane(criteriaOfRow(row), lane));
    if (matching.length === 0) return false;
    const users = await usersOfOrganizations(
      db,
      [...new Set(matching.map((row) => row.organization_id))],
      GenericStatus.Active,
    );
    // Drivers are members of the carrier too, but the marketplace is not theirs to see.
    const recipients = users
      .filter((user) => hasAny(permissionsFor(user.role_id), LOADS_CARRIER))
      .map(
        (user): Recipient => ({
          id: user.id,
          email: user.email,
          name: user.name,
          organizationId: user.organization_id,
        }),
      );
    const payloadLoad = loadPayload(load);
    const realtime = options.realtime();
    let alerted = false;
    for (const search of matching) {
      const payload: LaneAlert = {
        searchId: search.id,
        searchName: search.name,
        load: payloadLoad,
      };
      for (const recipient of recipients.filter(
        (user) => user.organizationId === search.organization_id,
      )) {
        alerted = true;
        try {
          realtime?.emit([`user:${recipient.id}`], 'lane:alert', payload);
        } catch (error) {
          logger.warn({ err: error, userId: recipient.id }, 'lane alerts: socket emit failed');
        }
        emails.add(recipient, payload, load.loadId, load.details.pickupTimezone);
      }
    }
    logger.info(
      { loadId: load.loadId, searches: matching.length, recipients: recipients.length },
      'lane alerts sent',
    );
    return alerted;
  };

  /** The last event handled here: a page delivered again (its checkpoint not written) alerts no one twice. */
  let handledUpTo: LogPosition | null = null;
  const definition: ReactorDefinition = {
    name: LANE_ALERTS_REACTOR,
    handles: [
      'LoadPosted',
      'LoadExpirationExtended',
      'LoadOpenedToMarketplace',
      ...new Set([...CHANGES_SEARCHES, ...CHANGES_ORGANIZATIONS]),
    ],
    async handle(events) {
      let alerted = false;
      for (const event of events) {
        if (handledUpTo && comparePositions(event.position, handledUpTo) <= 0) continue;
        forget(event);
        try {
          const load = await loadOf(event);
          if (load && (await alert(load, event.position))) alerted = true;
        } catch (error) {
          // One bad event must not replay the page (and alert everyone again).
          logger.warn(
            { err: error, eventId: event.id, type: event.type },
            'lane alerts: event skipped',
          );
        }
        handledUpTo = event.position;
      }
      if (!alerted) return 'idle';
      await flush().catch((error) => logger.warn({ err: error }, 'lane alerts: flush failed'));
    },
    async onLead() {
      // The events before the checkpoint went by elsewhere: nothing kept from before holds.
      forgetAll();
      recalled.clear();
      handledUpTo = null;
      ledFrom = await store.head();
    },
  };
  const reactor = startReactor(definition, {
    database,
    store,
    logger,
    claimRetryMs: options.claimRetryMs,
  });
  // The first start takes the head of the log as it is now: loads posted from here on alert.
  await reactor.started;

  const flushEveryMs = options.flushEveryMs ?? 5_000;
  const timer =
    flushEveryMs > 0 ? setInterval(() => void flush().catch(() => undefined), flushEveryMs) : null;
  timer?.unref();

  return {
    flush,
    reactor,
    async waitFor(position, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const remaining = deadline - Date.now();
        // The leader knows where it is; any other process reads where the leader's checkpoint is.
        if (reactor.position()) return reactor.waitFor(position, Math.max(remaining, 0));
        const at = await reactorCheckpointOf(db, LANE_ALERTS_REACTOR);
        if (at && comparePositions(at, position) >= 0) return true;
        if (remaining <= 0) return false;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(remaining, CHECKPOINT_POLL_MS)),
        );
      }
    },
    async stop() {
      if (timer) clearInterval(timer);
      await reactor.stop();
      await flush().catch(() => 0);
    },
  };
}
