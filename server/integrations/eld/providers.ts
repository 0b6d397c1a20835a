import type { HttpOptions } from './http.ts';
import { createMotiveProvider } from './motive.ts';
import type { EldProvider } from './provider.ts';
import { createSamsaraProvider } from './samsara.ts';
import { createSimulatorProvider } from './simulator.ts';

/** The ELD catalogue: the built-in simulator first, then the real providers. */
export type EldProviders = {
  readonly list: readonly EldProvider[];
  byId(id: string): EldProvider | null;
};

export function createEldProviders(
  options: { samsaraBaseUrl?: string; motiveBaseUrl?: string; http?: HttpOptions } = {},
): EldProviders {
  const list = [
    createSimulatorProvider(),
    createSamsaraProvider({ baseUrl: options.samsaraBaseUrl, http: options.http }),
    createMotiveProvider({ baseUrl: options.motiveBaseUrl, http: options.http }),
  ];
  return { list, byId: (id) => list.find((provider) => provider.id === id) ?? null };
}
