import type { TableAnswer } from '../../api/table.ts';
import { apiGet } from '../../api/http.ts';
import type { UserRow } from './users.api.ts';

/** Finds a user in the users table when the page is opened directly (there is no single-user read). */
export async function findUser(id: string): Promise<UserRow | null> {
  for (let page = 1; page <= 20; page += 1) {
    // No columns asked: whole rows.
    const answer = await apiGet<TableAnswer<UserRow>>(`/users?page=${page}&pageSize=100`);
    const found = answer.data.find((row) => row.id === id);
    if (found) return found;
    if (page >= answer.totalPages) return null;
  }
  return null;
}
