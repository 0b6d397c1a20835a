import { DateTime } from 'luxon';
import { trailerTypes } from '../../domain/catalog.ts';
import type { LoadDetails, LoadStop } from '../../domain/loads/load.types.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import type { Database } from '../db/database.ts';
import type { EventStore } from '../eventstore/eventStore.ts';
import type { Mailer } from '../integrations/mail/mailer.ts';
import type { Logger } from 'pino';
import type { Reactor } from '../../storage/reactor.ts';

/** What lane alerts send: the socket payload and the e-mail, and the reactor's options. */

/** The part of the socket.io server this needs (docs/api.md "Realtime"). */
export type RealtimeEmitter = { emit(rooms: string[], event: string, payload: unknown): void };

export type AlertPlace = {
  address: string;
  city: string | null;
  state: string | null;
  latitude: number;
  longitude: number;
};
/** The payload of `lane:alert`, sent to `user:<id>`. */
export type LaneAlert = {
  searchId: string;
  searchName: string;
  load: {
    id: string;
    guid: string;
    pickup: AlertPlace;
    dropoff: AlertPlace;
    pickupTime: string;
    equipment: number[];
    weight: number;
  };
};

export type LaneAlerts = {
  /** Sends the e-mails that are due (pending alerts, last e-mail a minute ago or never); returns how many went. */
  flush(): Promise<number>;
  /**
   * Resolves true once the lane alerts have handled the log up to `position`, false after
   * `timeoutMs`: in this process when it leads, else as the leader's checkpoint says (false while
   * no process leads).
   */
  waitFor(position: LogPosition, timeoutMs?: number): Promise<boolean>;
  /** The reactor on the log (its position is null while another process leads). */
  reactor: Reactor;
  /** Stops following the log, gives the lock back and sends the e-mails that are due. */
  stop(): Promise<void>;
};

export type LaneAlertOptions = {
  database: Database;
  store: EventStore;
  mailer: Pick<Mailer, 'send'>;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Read at each alert (the platform's may be replaced or attached later); absent, only e-mails go out. */
  realtime: () => RealtimeEmitter | null | undefined;
  /** The read models' runner: matching waits until searches, users and organizations have caught up with the load. */
  projections?: {
    waitFor(
      names: readonly string[],
      position: LogPosition | null,
      timeoutMs?: number,
    ): Promise<boolean>;
    readonly projections?: readonly { name: string }[];
  };
  /** How often a process that does not lead asks for the lock again (storage/reactor.ts). */
  claimRetryMs?: number;
  clock?: () => Date;
  /** How often the timer sends the due e-mails; 0 for no timer (tests call `flush`). */
  flushEveryMs?: number;
  /** At most one e-mail per user in this long. */
  emailEveryMs?: number;
};

export type Load = {
  loadId: string;
  guid: string;
  shipperOrganizationId: string;
  details: LoadDetails;
  /** 'preferred': only the shipper's preferred carriers hear of it yet; 'opened': its window just ended (the others hear now). */
  stage?: 'preferred' | 'opened';
};
export type Recipient = { id: string; email: string; name: string; organizationId: string };
export type Pending = { recipient: Recipient; alerts: LaneAlert[]; timezones: Map<string, string> };

const placeOf = (stop: LoadStop): AlertPlace => ({
  address: stop.address,
  city: stop.city,
  state: stop.state,
  latitude: stop.latitude,
  longitude: stop.longitude,
});

export const loadPayload = ({ loadId, guid, details }: Load): LaneAlert['load'] => ({
  id: loadId,
  guid,
  pickup: placeOf(details.stops[0]!),
  dropoff: placeOf(details.stops[details.stops.length - 1]!),
  pickupTime: details.pickupStart,
  equipment: [...details.equipment],
  weight: details.weight,
});

const placeName = (place: AlertPlace) =>
  place.city && place.state ? `${place.city}, ${place.state}` : place.address;
const equipmentName = (id: number) =>
  trailerTypes.find((type) => type.id === id)?.name ?? String(id);

/** One e-mail listing every alert since the last, each load with its lane, pickup time, equipment and weight. */
export function alertEmail({ recipient, alerts, timezones }: Pending): {
  to: string;
  subject: string;
  text: string;
} {
  const lines = alerts.map(({ searchName, load }) => {
    const zone = timezones.get(load.id) ?? 'UTC';
    const pickup = DateTime.fromISO(load.pickupTime, { zone }).toFormat('LLL d, yyyy HH:mm ZZZZ');
    return (
      `- ${load.guid}: ${placeName(load.pickup)} to ${placeName(load.dropoff)}, pickup ${pickup}, ${load.equipment.map(equipmentName).join(' or ')}, ` +
      `${load.weight.toLocaleString('en-US')} lbs (saved search "${searchName}")`
    );
  });
  const first = alerts[0]!.load;
  const subject =
    alerts.length === 1
      ? `New load on your lane: ${first.guid} ${placeName(first.pickup)} to ${placeName(first.dropoff)}`
      : `${alerts.length} new loads match your saved searches`;
  const text = [
    `Hello ${recipient.name},`,
    '',
    alerts.length === 1
      ? 'A load matching one of your saved searches was just posted:'
      : 'Loads matching your saved searches were just posted:',
    '',
    ...lines,
    '',
    'Open Search Loads in the marketplace to make an offer.',
  ].join('\n');
  return { to: recipient.email, subject, text };
}
