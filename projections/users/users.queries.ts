import { sql, type Kysely, type NotNull } from 'kysely';
import { Role } from '../../domain/catalog.ts';
import type { DB } from '../../storage/schema.ts';
import { orderDirection, type TablePage } from '../tablePage.ts';

/** The users table's sortable columns, by the name the client sends. */
export const USER_ORDER: Record<string, string> = {
  name: 'u.name',
  email: 'u.email',
  username: 'u.username',
  createdAt: 'u.created_at',
  status: 'u.status',
};

/**
 * A page of users with their organization's name and type, and the number of all matches.
 * `organizationId` null lists every organization's (a Superadmin).
 */
export async function usersPage(
  db: Kysely<DB>,
  filter: {
    organizationId: string | null;
    roleIds: number[] | null;
    statuses: number[] | null;
    organizationIds: string[] | null;
  },
  page: TablePage,
) {
  let base = db
    .selectFrom('users_view as u')
    .leftJoin('organizations_view as o', 'o.id', 'u.organization_id');
  if (filter.organizationId !== null)
    base = base.where('u.organization_id', '=', filter.organizationId);
  if (filter.roleIds) base = base.where('u.role_id', 'in', filter.roleIds);
  if (filter.statuses) base = base.where('u.status', 'in', filter.statuses);
  if (filter.organizationIds) base = base.where('u.organization_id', 'in', filter.organizationIds);
  const { pattern } = page;
  if (pattern)
    base = base.where((eb) =>
      eb.or([
        eb('u.name', 'ilike', pattern),
        eb('u.email', 'ilike', pattern),
        eb('u.username', 'ilike', pattern),
      ]),
    );
  const { total } = await base
    .select((eb) => eb.fn.countAll<string>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await base
    .select([
      'u.id',
      'u.name',
      'u.email',
      'u.username',
      'u.phone',
      'u.role_id',
      'u.organization_id',
      'u.status',
      'u.email_confirmed',
      'u.created_at',
      'o.name as organization_name',
      'o.type as organization_type',
    ])
    .orderBy(sql.ref(page.column), orderDirection(page))
    .orderBy('u.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { total: Number(total), rows };
}

/** Whether any Superadmin exists. */
export async function superadminExists(db: Kysely<DB>): Promise<boolean> {
  const existing = await db
    .selectFrom('users_view')
    .select('id')
    .where('role_id', '=', Role.Superadmin)
    .executeTakeFirst();
  return Boolean(existing);
}

/** The user a password reset code (its hash) was sent to. */
export const userByResetCode = (db: Kysely<DB>, codeHash: string) =>
  db
    .selectFrom('users_view')
    .select(['id', 'organization_id'])
    .where('reset_code_hash', '=', codeHash)
    .executeTakeFirst();

/** The users of an organization with that role and status, by name. */
export const organizationUsers = (
  db: Kysely<DB>,
  organizationId: string,
  roleId: number,
  status: number,
) =>
  db
    .selectFrom('users_view')
    .select(['id', 'name', 'phone', 'email'])
    .where('organization_id', '=', organizationId)
    .where('role_id', '=', roleId)
    .where('status', '=', status)
    .orderBy('name')
    .execute();

/** The users of these organizations with that status, for alerts. */
export async function usersOfOrganizations(
  db: Kysely<DB>,
  organizationIds: readonly string[],
  status: number,
) {
  return db
    .selectFrom('users_view')
    .select(['id', 'email', 'name', 'role_id', 'organization_id'])
    .where('organization_id', 'in', [...organizationIds])
    .where('status', '=', status)
    .$narrowType<{ organization_id: NotNull }>()
    .execute();
}

/** Whether the organization has a user other than this one, whatever its status. */
export async function hasOtherMembers(
  db: Kysely<DB>,
  organizationId: string,
  userId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('users_view')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '<>', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The names of these users (none asked, none read). */
export async function userNames(
  db: Kysely<DB>,
  userIds: readonly string[],
): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users_view')
    .select(['id', 'name'])
    .where('id', 'in', [...userIds])
    .execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
