/**
 * The demo's busy facilities, tagged and answered: on the year of delivered loads (laneHistory.ts)
 * the drivers of carrier3 tag the places they left, and Gulf Coast Chemicals (shipper2) replies on
 * its Joliet terminal's page. The figures come from the history's recorded arrivals and departures.
 */
import type { Caller } from '../commands/caller.ts';
import { createFacilityCommands, FACILITY_VIEWS } from '../commands/facilities.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { latest } from '../eventstore/eventStore.ts';
import type { Platform } from '../platform.ts';
import { facilityAt } from '../../projections/facilities/facilities.queries.ts';
import { historyLanes, historyPlaces } from './historyLanes.ts';

/** What each driver says, in turn, about the places of the history lanes. */
const SAYINGS = [['parking', 'entrance'], ['wait', 'staff'], ['restrooms', 'parking'], ['wait']];

export async function seedDemoFacilities(
  platform: Platform,
  users: { drivers: Caller[]; shipper: Caller },
  now: string,
): Promise<LogPosition | null> {
  const { store, runner, database } = platform;
  const db = database.db;
  await runner.waitFor(FACILITY_VIEWS, await store.committedHead(), 20_000);
  const facilities = createFacilityCommands({ store, db, runner });
  const places = [...new Set(historyLanes.flatMap((lane) => [lane.from, lane.to]))];
  let last: LogPosition | null = null;
  let turn = 0;
  for (const place of places) {
    const facilityId = await facilityAt(db, place);
    if (!facilityId) continue;
    for (const driver of users.drivers) {
      const tags = SAYINGS[turn++ % SAYINGS.length]!;
      try {
        last = latest(last, await facilities.tag(driver, facilityId, tags, now));
      } catch {
        // This driver never left that place: nothing to say.
      }
    }
  }
  const joliet = await facilityAt(db, historyPlaces.jolietTerminal);
  if (joliet)
    last = latest(
      last,
      await facilities.reply(
        users.shipper,
        joliet,
        'Trucks check in at gate 2; the night shift loads from 10 pm. Call the dispatcher on the gate phone if the line is long.',
        now,
      ),
    );
  return last;
}
