/**
 * Facilities' tags and replies (stream `facility-<id>`); this module is its only writer. Who may tag
 * (a driver whose tour left the facility) and reply (the facility's shipper) is read from the
 * facilities read model, caught up with the log first.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  facilityDecider,
  facilityStream,
  type FacilityCommand,
} from '../../domain/facilities/facility.ts';
import { ForbiddenError, NotFoundError } from '../../domain/shared/errors.ts';
import {
  departedTourOf,
  facilityExists,
  isFacilityShipper,
} from '../../projections/facilities/facilities.queries.ts';
import type { DB } from '../../storage/schema.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore, LogPosition } from '../eventstore/eventStore.ts';
import { metadataOf, type Caller } from './caller.ts';

export const FACILITY_VIEWS = ['facilities'] as const;

type Waiter = {
  waitFor(
    names: readonly string[],
    position: LogPosition | null,
    timeoutMs?: number,
  ): Promise<boolean>;
};

export function createFacilityCommands(deps: {
  store: EventStore;
  db: Kysely<DB>;
  runner: Waiter;
}) {
  const { store, db, runner } = deps;

  /** The read model as far as the log has been committed (bounded), then the facility or 404. */
  const known = async (facilityId: string) => {
    await runner.waitFor(FACILITY_VIEWS, await store.committedHead(), 2_000);
    if (!(await facilityExists(db, facilityId))) throw new NotFoundError('Facility not found');
  };

  const run = async (caller: Caller, facilityId: string, command: FacilityCommand, now: string) => {
    const { position } = await handleCommand(
      store,
      facilityStream(facilityId),
      facilityDecider,
      command,
      metadataOf(caller, now),
    );
    if (position) await runner.waitFor(FACILITY_VIEWS, position);
    return position;
  };

  return {
    /** What the caller may do on the facility's page. */
    async abilities(caller: Caller, facilityId: string) {
      const { actor } = caller;
      const [tour, shipper] = await Promise.all([
        departedTourOf(db, facilityId, actor.userId),
        actor.organizationId
          ? isFacilityShipper(db, facilityId, actor.organizationId)
          : Promise.resolve(false),
      ]);
      return { canTag: tour !== null, canReply: shipper };
    },

    /** A driver's tags, once a tour of theirs has left the facility. */
    async tag(caller: Caller, facilityId: string, tags: readonly string[], now: string) {
      await known(facilityId);
      const tourId = await departedTourOf(db, facilityId, caller.actor.userId);
      if (!tourId)
        throw new ForbiddenError('Only a driver whose tour has left this facility can tag it');
      return run(
        caller,
        facilityId,
        {
          type: 'TagFacility',
          data: {
            facilityId,
            tags,
            tourId,
            userId: caller.actor.userId,
            organizationId: caller.actor.organizationId,
            now,
          },
        },
        now,
      );
    },

    /** A reply of the facility's shipper. */
    async reply(caller: Caller, facilityId: string, text: string, now: string) {
      await known(facilityId);
      const organizationId = caller.actor.organizationId;
      if (!organizationId || !(await isFacilityShipper(db, facilityId, organizationId)))
        throw new ForbiddenError("Only the facility's shipper can reply");
      return run(
        caller,
        facilityId,
        {
          type: 'ReplyToFacility',
          data: {
            facilityId,
            replyId: randomUUID(),
            text,
            organizationId,
            userId: caller.actor.userId,
            now,
          },
        },
        now,
      );
    },
  };
}
