import type { Kysely } from 'kysely';
import { ratingCriteria } from '../../domain/catalog.ts';

/**
 * Each organization's ratings as `{criterion name: mean}` over all its rated tours, two decimals
 * (DOMAIN.md "Ratings"); organizations never rated are absent from the map.
 */
export async function organizationRatings(db: Kysely<any>, organizationIds: readonly string[]): Promise<Map<string, Record<string, number>>> {
  const result = new Map<string, Record<string, number>>();
  if (organizationIds.length === 0) return result;
  const rows = await db.selectFrom('tour_ratings_view')
    .select(['rated_organization_id', 'criteria', (eb) => eb.fn.avg<string>('rating').as('mean')])
    .where('rated_organization_id', 'in', [...organizationIds]).groupBy(['rated_organization_id', 'criteria']).orderBy('criteria').execute();
  for (const row of rows) {
    const name = ratingCriteria.find((criterion) => criterion.id === row.criteria)?.name;
    if (!name) continue;
    const ratings = result.get(row.rated_organization_id) ?? {};
    ratings[name] = Math.round(Number(row.mean) * 100) / 100;
    result.set(row.rated_organization_id, ratings);
  }
  return result;
}
