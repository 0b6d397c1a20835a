import { atom } from 'jotai';
import type { UserRow } from './users.api.ts';

/** The row an administrator chose to edit: /user/edit/{id} starts from it instead of searching the table. */
export const editedUserAtom = atom<UserRow | null>(null);
