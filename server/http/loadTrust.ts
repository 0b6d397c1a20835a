/**
 * The trust flags as the routes read them (docs/domain.md "Trust flags"): first the read models the
 * flags are weighed from catch up with the log as it stands (a carrier's authority recorded by the
 * daily check, a dock's release, a driver removed: nothing a request of this reader wrote, so the
 * consistency token does not cover them), then one batch of queries for the whole page.
 */
import type { Kysely } from 'kysely';
import type { Trust } from '../../domain/loads/trust.ts';
import { TRUST_VIEWS, trustOfLoads, trustOfOffers } from '../../projections/trust/trust.queries.ts';
import type { DB } from '../../storage/schema.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';

/** How long a trust read waits for the read models; then it answers what they hold. */
const TRUST_WAIT_MS = 2_000;

export function createTrustReader(deps: {
  db: Kysely<DB>;
  store: { head(): Promise<LogPosition> };
  runner: {
    waitFor(
      names: readonly string[],
      position: LogPosition | null,
      timeoutMs?: number,
    ): Promise<boolean>;
  };
}) {
  const caughtUp = async () => {
    await deps.runner.waitFor(TRUST_VIEWS, await deps.store.head(), TRUST_WAIT_MS);
  };
  return {
    async ofLoads(loadIds: readonly string[]): Promise<Map<string, Trust>> {
      if (loadIds.length === 0) return new Map();
      await caughtUp();
      return trustOfLoads(deps.db, loadIds);
    },
    async ofOffers(offerIds: readonly string[]): Promise<Map<string, Trust>> {
      if (offerIds.length === 0) return new Map();
      await caughtUp();
      return trustOfOffers(deps.db, offerIds);
    },
  };
}
export type TrustReader = ReturnType<typeof createTrustReader>;
