import { EventEmitter } from 'node:events';
import { GenericStatus } from '../../domain/catalog.ts';
import { evolveLoad, initialLoad } from '../../domain/loads/load.decide.ts';
import {
  loadStream,
  type LoadEvent,
  type LoadExpirationExtended,
  type LoadPosted,
} from '../../domain/loads/load.types.ts';
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
import { createLeadership } from '../../storage/leadership.ts';
import {
  comparePositions,
  type LogPosition,
  type RecordedEvent,
} from '../eventstore/eventStore.ts';
import {
  alertEmail,
  loadPayload,
  type LaneAlert,
  type LaneAlertOptions,
  type LaneAlerts,
  type Load,
  type Pending,
  type Recipient,
} from './laneAlertMessages.ts';

export type {
  AlertPlace,
  LaneAlert,
  LaneAlertOptions,
  LaneAlerts,
  RealtimeEmitter,
} from './laneAlertMessages.ts';

/** The job's lock (storage/leadership.ts). */
const JOB = 'reactor:laneAlerts';
const READ_MODELS = ['savedSearches', 'users', 'organizations'] as const;
const CHANGES_SEARCHES: ReadonlySet<string> = new Set(savedSearchesProjection.handles);
const CHANGES_ORGANIZATIONS: ReadonlySet<string> = new Set(organizationsProjection.handles);

/**
 * Lane alerts (issue 5): when a load is posted, or a paused one reopens, every saved search it
 * matches alerts the Active users of that carrier organization who may see the marketplace: at once
 * over the socket (`lane:alert` to `user:<id>`), and by e-mail at most once a minute per user, one
 * e-mail listing every alert since the last. Pending e-mails live in memory: a restart drops them,
 * the socket alerts having gone out already. With several processes on one PostgreSQL only the
 * holder of an advisory lock alerts, so no one hears of a load twice.
 */
export async function startLaneAlerts(options: LaneAlertOptions): Promise<LaneAlerts> {
  const { database, store, mailer, logger } = options;
  const { db } = database;
  const clock = options.clock ?? (() => new Date());
  const emailEveryMs = options.emailEveryMs ?? 60_000;
  const pending = new Map<string, Pending>();
  const lastEmailAt = new Map<string, number>();
  const advanced = new EventEmitter().setMaxListeners(0);
  let handled = options.from ?? (await store.head());
  const leadership = createLeadership(database);
  let flushing: Promise<number> = Promise.resolve(0);
  // A runner without one of these read models would make every load wait for its timeout.
  const readModels = READ_MODELS.filter(
    (name) =>
      options.projections?.projections?.some((projection) => projection.name === name) ?? true,
  );

  const isLeader = async () => {
    try {
      return await leadership.holds(JOB);
    } catch (error) {
      logger.warn({ err: error }, 'lane alerts: could not take the lock');
      await leadership.reset();
      return false;
    }
  };

  const loadOf = async (event: RecordedEvent): Promise<Load | null> => {
    if (event.type === 'LoadPosted') {
      const { loadId, guid, shipperOrganizationId, details } = (event as unknown as LoadPosted)
        .data;
      return { loadId, guid, shipperOrganizationId, details };
    }
    if (
      event.type === 'LoadExpirationExtended' &&
      (event as unknown as LoadExpirationExtended).data.reopened
    ) {
      const { events } = await store.readStream<LoadEvent>(
        loadStream((event as unknown as LoadExpirationExtended).data.loadId),
      );
      const state = events.reduce(evolveLoad, initialLoad());
      if (!state.posted || state.status !== GenericStatus.Created) return null;
      return {
        loadId: state.loadId,
        guid: state.guid,
        shipperOrganizationId: state.shipperOrganizationId,
        details: state.details,
      };
    }
    return null;
  };

  /**
   * What every load is matched against, read once and kept until an event that changes it passes
   * through this reactor (which reads the log in order): the saved searches of Active organizations
   * and the organizations' statuses. Kept only when read after the read models reached the load.
   */
  let searches: Promise<SavedSearchRow[]> | null = null;
  const statuses = new Map<string, Promise<number | undefined>>();
  const forget = (event: RecordedEvent) => {
    if (CHANGES_SEARCHES.has(event.type)) searches = null;
    if (CHANGES_ORGANIZATIONS.has(event.type)) {
      searches = null;
      statuses.clear();
    }
  };
  const cached = <T>(
    caught: boolean,
    keep: (value: Promise<T>) => void,
    read: () => Promise<T>,
  ): Promise<T> => {
    const value = read();
    if (caught) keep(value);
    value.catch(() => {
      searches = null;
      statuses.clear();
    });
    return value;
  };

  const alert = async (load: Load, position: LogPosition) => {
    const caught = (await options.projections?.waitFor(readModels, position, 5_000)) ?? true;
    const shipperStatus = await (statuses.get(load.shipperOrganizationId) ??
      cached(
        caught,
        (value) => statuses.set(load.shipperOrganizationId, value),
        async () => (await organizationNameAndStatus(db, load.shipperOrganizationId))?.status,
      ));
    if (shipperStatus !== GenericStatus.Active) return;
    const active = await (searches ??
      cached(
        caught,
        (value) => {
          searches = value;
        },
        () => activeSearches(db),
      ));
    const others = active.filter((row) => row.organization_id !== load.shipperOrganizationId);
    const lane = { stops: load.details.stops, equipment: load.details.equipment };
    const matching = others.filter((row) => matchesLane(criteriaOfRow(row), lane));
    if (matching.length === 0) return;
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
    for (const search of matching) {
      const payload: LaneAlert = {
        searchId: search.id,
        searchName: search.name,
        load: payloadLoad,
      };
      for (const recipient of recipients.filter(
        (user) => user.organizationId === search.organization_id,
      )) {
        try {
          realtime?.emit([`user:${recipient.id}`], 'lane:alert', payload);
        } catch (error) {
          logger.warn({ err: error, userId: recipient.id }, 'lane alerts: socket emit failed');
        }
        const entry: Pending = pending.get(recipient.id) ?? {
          recipient,
          alerts: [],
          timezones: new Map(),
        };
        entry.recipient = recipient;
        entry.alerts.push(payload);
        entry.timezones.set(load.loadId, load.details.pickupTimezone);
        pending.set(recipient.id, entry);
      }
    }
    logger.info(
      { loadId: load.loadId, searches: matching.length, recipients: recipients.length },
      'lane alerts sent',
    );
  };

  const sendDue = async (): Promise<number> => {
    const now = clock().getTime();
    let sent = 0;
    for (const [userId, entry] of [...pending]) {
      const last = lastEmailAt.get(userId);
      if (last !== undefined && now - last < emailEveryMs) continue;
      pending.delete(userId);
      lastEmailAt.set(userId, now);
      try {
        await mailer.send(alertEmail(entry));
        sent++;
      } catch (error) {
        // Kept for the next minute, with whatever arrives meanwhile.
        logger.warn({ err: error, userId }, 'lane alerts: e-mail failed');
        const newer = pending.get(userId);
        pending.set(userId, {
          ...entry,
          alerts: [...entry.alerts, ...(newer?.alerts ?? [])],
          timezones: new Map([...entry.timezones, ...(newer?.timezones ?? [])]),
        });
      }
    }
    for (const [userId, at] of lastEmailAt)
      if (now - at >= emailEveryMs && !pending.has(userId)) lastEmailAt.delete(userId);
    return sent;
  };
  const flush = (): Promise<number> => {
    flushing = flushing.catch(() => 0).then(sendDue);
    return flushing;
  };

  const subscription = store.subscribe({ from: handled }, async (page) => {
    if (await isLeader()) {
      for (const event of page) {
        forget(event);
        try {
          const load = await loadOf(event);
          if (load) await alert(load, event.position);
        } catch (error) {
          // One bad event must not replay the page (and alert everyone again).
          logger.warn(
            { err: error, eventId: event.id, type: event.type },
            'lane alerts: event skipped',
          );
        }
      }
      await flush().catch((error) => logger.warn({ err: error }, 'lane alerts: flush failed'));
    }
    handled = page[page.length - 1]!.position;
    advanced.emit('advanced');
  });

  const flushEveryMs = options.flushEveryMs ?? 5_000;
  const timer =
    flushEveryMs > 0 ? setInterval(() => void flush().catch(() => undefined), flushEveryMs) : null;
  timer?.unref();

  return {
    flush,
    async waitFor(position, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      while (comparePositions(handled, position) < 0) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) return false;
        await new Promise<void>((resolve) => {
          const done = () => {
            clearTimeout(wait);
            advanced.off('advanced', done);
            resolve();
          };
          const wait = setTimeout(done, Math.min(remaining, 50));
          advanced.on('advanced', done);
        });
      }
      return true;
    },
    async stop() {
      if (timer) clearInterval(timer);
      await subscription.close();
      await flush().catch(() => 0);
      await leadership.release();
    },
  };
}
