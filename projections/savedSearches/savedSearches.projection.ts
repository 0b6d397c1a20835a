import { sql } from 'kysely';
import type {
  SavedSearchEvent,
  SearchArea,
  SearchCriteria,
} from '../../domain/searches/savedSearch.types.ts';
import { defineProjection } from '../projection.ts';
import type { SavedSearchRow } from './savedSearches.tables.ts';

const areaColumns = (area: SearchArea | undefined) =>
  [area?.latitude ?? null, area?.longitude ?? null, area?.radius ?? null] as const;

/** The criteria of a row, as the domain names them; absent ones left out. */
export const criteriaOfRow = (row: SavedSearchRow): SearchCriteria => {
  const area = (prefix: 'origin' | 'destination'): SearchArea | undefined => {
    const latitude = row[`${prefix}_latitude`];
    const longitude = row[`${prefix}_longitude`];
    const radius = row[`${prefix}_radius`];
    return latitude === null || longitude === null || radius === null
      ? undefined
      : {
          latitude: Number(latitude),
          longitude: Number(longitude),
          radius: Number(radius) as SearchArea['radius'],
        };
  };
  const origin = area('origin');
  const destination = area('destination');
  const equipment = (row.equipment ?? []).map(Number);
  return {
    ...(origin ? { origin } : {}),
    ...(destination ? { destination } : {}),
    ...(equipment.length ? { equipment } : {}),
  };
};

/** Every organization's saved searches, for GET searches and the lane alerts. */
export const savedSearchesProjection = defineProjection({
  name: 'savedSearches',
  version: 1,
  tables: ['saved_searches_view'],
  handles: ['SearchSaved', 'SearchDeleted'],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as SavedSearchEvent;
      switch (event.type) {
        case 'SearchSaved': {
          const d = event.data;
          const [originLatitude, originLongitude, originRadius] = areaColumns(d.origin);
          const [destinationLatitude, destinationLongitude, destinationRadius] = areaColumns(
            d.destination,
          );
          const equipment = `{${(d.equipment ?? []).map((id) => Math.trunc(id)).join(',')}}`;
          await sql`INSERT INTO saved_searches_view (id, organization_id, user_id, name, origin_latitude, origin_longitude, origin_radius,
              destination_latitude, destination_longitude, destination_radius, equipment, created_at)
            VALUES (${d.searchId}, ${d.organizationId}, ${d.userId}, ${d.name}, ${originLatitude}, ${originLongitude}, ${originRadius},
              ${destinationLatitude}, ${destinationLongitude}, ${destinationRadius}, ${equipment}::integer[], ${d.at})
            ON CONFLICT (id) DO NOTHING`.execute(trx);
          break;
        }
        case 'SearchDeleted':
          await sql`DELETE FROM saved_searches_view WHERE id = ${event.data.searchId}`.execute(trx);
          break;
        default:
          break;
      }
    }
  },
});
