import type { Generated, Selectable } from 'kysely';
import type { Timestamp } from '../../storage/columns.ts';

/** `users_view` (migration 2026_11_22_1100_identity_read_models): one row per user. */
export type UsersViewTable = {
  id: string;
  email: string;
  username: string;
  name: string;
  phone: string;
  role_id: number;
  organization_id: string | null;
  status: number;
  email_confirmed: Generated<boolean>;
  reset_code_hash: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type UsersTables = { users_view: UsersViewTable };

export type UserRow = Selectable<UsersViewTable>;
