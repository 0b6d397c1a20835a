import { atom } from 'jotai';

/** What POST /api/login answers (API.md). */
export interface Session {
  accessToken: string;
  refreshToken: string;
  user: { id: string; email?: string; username?: string };
}

/** The signed-in session, in memory only for now. */
export const sessionAtom = atom<Session | null>(null);
