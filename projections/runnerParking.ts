import { sql } from 'kysely';
import { comparePositions, type LogPosition, type RecordedEvent } from '../storage/eventStore.ts';
import {
  countParked,
  errorText,
  findParked,
  isTransient,
  listParked,
  unparkEvent,
  type ParkedEvent,
} from './parking.ts';
import { CheckpointMovedError, PagingRunner, sleep, type Target } from './runnerPaging.ts';

/**
 * Parking: a page that fails is applied again event by event; an event that still fails after a
 * few tries (while the database answers) is parked, in the transaction that moves the checkpoint
 * past it, and the events after it flow on. The Superadmin lists the parked events and applies one
 * again once the cause is fixed.
 */
export abstract class ParkingRunner extends PagingRunner {
  /**
   * Applies the events of a page that failed one at a time, each with its checkpoint. An event that
   * fails every try, while the database still answers an empty transaction, is parked; an error that
   * is the database's (the connection, a shutdown) goes up, and the page is tried again later.
   */
  protected async applyOneByOne(
    target: Target,
    handled: RecordedEvent[],
    from: LogPosition,
    last: LogPosition,
  ): Promise<void> {
    const { projection } = target;
    let at = from;
    for (const event of handled) {
      const error = await this.tryAlone(target, event, at);
      if (error === null) {
        if (!target.schema) this.tellCommitted(projection.name, [event]);
      } else {
        await this.database.background.transaction().execute((trx) => sql`SELECT 1`.execute(trx));
        if (this.stopped) throw error;
        await this.commit(target, [], at, event.position, { event, error });
        this.logger.error(
          {
            projection: target.key,
            eventId: event.id,
            type: event.type,
            streamId: event.streamId,
            error: errorText(error),
          },
          'projection parked an event it cannot apply',
        );
      }
      at = event.position;
      this.advance(target, at, true);
    }
    if (comparePositions(at, last) < 0) await this.commit(target, [], at, last);
  }

  /** Null once the event is applied and checkpointed; its last error after every try failed. */
  protected async tryAlone(
    target: Target,
    event: RecordedEvent,
    at: LogPosition,
  ): Promise<unknown> {
    const attempts = this.options.attempts ?? 5;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.commit(target, [event], at, event.position);
        return null;
      } catch (error) {
        if (error instanceof CheckpointMovedError || this.stopped || isTransient(error))
          throw error;
        if (attempt >= attempts) return error;
        await sleep((this.options.retryDelayMs ?? 100) * 2 ** (attempt - 1));
      }
    }
  }

  /** The events a read model set aside, in log order; null for an unknown name. */
  async parked(name: string): Promise<ParkedEvent[] | null> {
    if (!this.projections.some((projection) => projection.name === name)) return null;
    return listParked(this.database.background, name);
  }

  /** How many events each read model set aside (only those with any). */
  parkedCounts(): Promise<Map<string, number>> {
    return countParked(this.database.background);
  }

  /**
   * Applies a parked event again, alone, on the live tables (after the page in hand, when this process
   * runs the projection); on success it leaves the parked list in the same transaction.
   */
  async retryParked(
    name: string,
    eventId: string,
  ): Promise<{ status: 'unknown' } | { status: 'applied' } | { status: 'failed'; error: string }> {
    const projection = this.projections.find((candidate) => candidate.name === name);
    const parked = projection ? await findParked(this.database.background, name, eventId) : null;
    if (!projection || !parked) return { status: 'unknown' };
    const event = await this.readEvent(parked);
    if (!event) return { status: 'failed', error: 'The event is no longer in the log' };
    const work = async (): Promise<{ status: 'applied' } | { status: 'failed'; error: string }> => {
      try {
        await this.database.background.transaction().execute(async (trx) => {
          await projection.apply(trx, [event]);
          await unparkEvent(trx, name, eventId);
        });
      } catch (error) {
        return { status: 'failed', error: errorText(error) };
      }
      this.logger.info({ projection: name, eventId, type: event.type }, 'parked event applied');
      this.tellCommitted(name, [event]);
      return { status: 'applied' };
    };
    return this.running.has(name) ? this.serial(name, work) : work();
  }

  /** One event of the log by its position (its id is checked), else from its stream. */
  protected async readEvent(parked: {
    eventId: string;
    streamId: string;
    position: LogPosition;
  }): Promise<RecordedEvent | null> {
    const before = {
      transactionId: parked.position.transactionId,
      globalPosition: String(BigInt(parked.position.globalPosition) - 1n),
    };
    const [candidate] = await this.store.readAll({ from: before, limit: 1 });
    if (candidate?.id === parked.eventId) return candidate;
    const { events } = await this.store.readStream(parked.streamId);
    return events.find((event) => event.id === parked.eventId) ?? null;
  }
}
