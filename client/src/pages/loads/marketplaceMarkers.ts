import type { MapMarker } from '../../components/map/index.ts';
import type { useFormats } from '../../shared/format.ts';
import type { MarketplaceRow } from '../../shared/loads/loads.api.ts';

/** The map's markers: each load's pickup, and the selected load's drop-off too. */
export const marketplaceMarkers = (
  rows: MarketplaceRow[],
  selected: string | null,
  fresh: Set<string>,
  format: ReturnType<typeof useFormats>,
): MapMarker[] =>
  rows.flatMap((row) => [
    {
      id: `${row.id}-p`,
      kind: 'pickup' as const,
      latitude: row.pickup.latitude,
      longitude: row.pickup.longitude,
      label: selected === row.id ? row.guid : undefined,
      title: `${row.guid} ${format.place(row.pickup)}`,
      highlighted: selected === row.id || fresh.has(row.id),
    },
    ...(selected === row.id
      ? [
          {
            id: `${row.id}-d`,
            kind: 'dropoff' as const,
            latitude: row.dropoff.latitude,
            longitude: row.dropoff.longitude,
            title: `${row.guid} ${format.place(row.dropoff)}`,
            highlighted: true,
          },
        ]
      : []),
  ]);
