/** The simulation's tiers of marketplace size, and the request rates a tier's trucks make. */
import type { Rates } from './workload.ts';

export type Tier = {
  id: 'A' | 'B';
  name: string;
  trucks: number;
  loadsPerSecond: number;
  offersPerSecond: number;
  watchers: number;
  dispatchers: number;
  /** Dispatched tours the trucks are simulated on (one driver each). */
  tours: number;
  shippers: number;
  carriers: number;
};

export const TIERS: Record<'A' | 'B', Tier> = {
  A: {
    id: 'A',
    name: 'regional marketplace',
    trucks: 1_000,
    loadsPerSecond: 0.5,
    offersPerSecond: 2,
    watchers: 50,
    dispatchers: 20,
    tours: 50,
    shippers: 5,
    carriers: 10,
  },
  B: {
    id: 'B',
    name: 'national marketplace, DAT-like posting rate',
    trucks: 10_000,
    loadsPerSecond: 3,
    offersPerSecond: 15,
    watchers: 500,
    dispatchers: 100,
    tours: 200,
    shippers: 10,
    carriers: 25,
  },
};
/** Every truck reports once per this many seconds. */
export const PING_SECONDS = 30;
/** Each tour's driver posts its trucks' pings due in this period in one batch. */
export const FLUSH_SECONDS = 3;

/** Tours × batch ÷ flush period = trucks ÷ ping period. */
export function ratesOf(tier: Tier): Rates {
  const positionsPerBatch = (tier.trucks / tier.tours) * (FLUSH_SECONDS / PING_SECONDS);
  if (!Number.isInteger(positionsPerBatch))
    throw new Error(
      `${tier.trucks} trucks do not split into whole batches over ${tier.tours} tours`,
    );
  return {
    batchesPerSecond: tier.tours / FLUSH_SECONDS,
    positionsPerBatch,
    loadsPerSecond: tier.loadsPerSecond,
    offersPerSecond: tier.offersPerSecond,
  };
}
