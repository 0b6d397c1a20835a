import type { RouteTitleKey } from './textKeys.ts';

export type { RouteTitleKey };

/** What every page receives: its title key and the path's parameters. */
export interface PageProps {
  titleKey: RouteTitleKey;
  params: Record<string, string | undefined>;
}
