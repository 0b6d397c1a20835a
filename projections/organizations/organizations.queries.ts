import { sql, type Kysely } from 'kysely';
import { Role } from '../../domain/catalog.ts';
import type { DB } from '../../storage/schema.ts';
import { orderDirection, type TablePage } from '../tablePage.ts';

/** The organizations table's sortable columns; `status` is the organization's own. */
export const ORGANIZATION_ORDER: Record<string, string> = {
  name: 'o.name',
  email: 'o.email',
  createdAt: 'o.created_at',
  status: 'o.status',
};

/**
 * A page of the organizations of one type, each with its main user (the earliest who is not a
 * driver, else the earliest: its contact), and the number of all matches; `statuses` filters on the
 * organization's own status.
 */
export async function organizationsPage(
  db: Kysely<DB>,
  filter: { type: string; statuses: number[] | null },
  page: TablePage,
) {
  let base = db
    .selectFrom('organizations_view as o')
    .leftJoinLateral(
      // The main user: the earliest who is not a driver (a carrier's dispatcher), else the earliest.
      (eb) =>
        eb
          .selectFrom('users_view')
          .select(['id', 'name', 'email', 'username', 'phone', 'status'])
          .whereRef('organization_id', '=', 'o.id')
          .orderBy(sql`role_id = ${Role.Driver}`)
          .orderBy('created_at')
          .orderBy('id')
          .limit(1)
          .as('u'),
      (join) => join.onTrue(),
    )
    .where('o.type', '=', filter.type);
  if (filter.statuses) base = base.where('o.status', 'in', filter.statuses);
  const { pattern } = page;
  if (pattern) {
    base = base.where((eb) =>
      eb.or([
        eb('o.name', 'ilike', pattern),
        eb('o.email', 'ilike', pattern),
        eb('u.name', 'ilike', pattern),
        eb('u.email', 'ilike', pattern),
        eb('u.username', 'ilike', pattern),
      ]),
    );
  }
  const { total } = await base
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .selectAll('o')
    .select([
      'u.id as user_id',
      'u.name as user_name',
      'u.email as user_email',
      'u.username as user_username',
      'u.phone as user_phone',
      'u.status as user_status',
    ])
    .orderBy(sql.ref(page.column), orderDirection(page))
    .orderBy('o.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(total), rows };
}

/** Organizations by name (id, name, type): all of them, or only the one given. */
export function organizationChoices(db: Kysely<DB>, onlyId: string | null) {
  let select = db
    .selectFrom('organizations_view')
    .select(['id', 'name', 'type'])
    .orderBy('name')
    .orderBy('id');
  if (onlyId !== null) select = select.where('id', '=', onlyId);
  return select.execute();
}

/** An organization's name and status, or undefined. */
export const organizationNameAndStatus = (db: Kysely<DB>, organizationId: string) =>
  db
    .selectFrom('organizations_view')
    .select(['name', 'status'])
    .where('id', '=', organizationId)
    .executeTakeFirst();

/** These organizations' rows, in no order (none asked, none read: SQL has no empty `in ()`). */
export async function organizationsById(db: Kysely<DB>, organizationIds: readonly string[]) {
  if (organizationIds.length === 0) return [];
  return db
    .selectFrom('organizations_view')
    .selectAll()
    .where('id', 'in', [...organizationIds])
    .execute();
}

/** The names of these organizations (none asked, none read). */
export async function organizationNames(
  db: Kysely<DB>,
  organizationIds: readonly string[],
): Promise<Map<string, string>> {
  if (organizationIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('organizations_view')
    .select(['id', 'name'])
    .where('id', 'in', [...organizationIds])
    .execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
