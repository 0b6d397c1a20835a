import { atom, getDefaultStore } from 'jotai';
import type { Profile, Session } from '../../../domain/contracts/auth.contract.ts';

/** The signed-in user as GET /api/profile and POST /api/login answer it. */
export type AuthUser = Profile;

/** What POST /api/login answers. */
export type { Session };

export interface Tokens {
  accessToken: string;
  refreshToken: string | null;
}

/** 'checking' while a stored token is verified at startup (a spinner shows meanwhile). */
export type AuthStatus = 'checking' | 'signedIn' | 'signedOut';

/** Browser storage keys of the two tokens (the specification keeps both in browser storage). */
export const tokenStorageKeys = { access: 'token', refresh: 'refreshToken' } as const;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // storage disabled: tokens live only as long as the page
  }
}

const memoryTokens: { value: Tokens | null } = { value: null };

export function readTokens(): Tokens | null {
  const store = storage();
  if (!store) return memoryTokens.value;
  const accessToken = store.getItem(tokenStorageKeys.access);
  return accessToken ? { accessToken, refreshToken: store.getItem(tokenStorageKeys.refresh) } : null;
}

export function writeTokens(tokens: Tokens): void {
  memoryTokens.value = tokens;
  const store = storage();
  store?.setItem(tokenStorageKeys.access, tokens.accessToken);
  if (tokens.refreshToken) store?.setItem(tokenStorageKeys.refresh, tokens.refreshToken);
  else store?.removeItem(tokenStorageKeys.refresh);
}

export function clearTokens(): void {
  memoryTokens.value = null;
  storage()?.removeItem(tokenStorageKeys.access);
  storage()?.removeItem(tokenStorageKeys.refresh);
}

export const authUserAtom = atom<AuthUser | null>(null);
export const authStatusAtom = atom<AuthStatus>(readTokens() ? 'checking' : 'signedOut');

/** The jotai store the app and the HTTP client share (the app renders without a Provider). */
export const appStore = getDefaultStore();

/** Sign-in success stores the tokens and the user. */
export function signInWith(session: Session): void {
  writeTokens({ accessToken: session.accessToken, refreshToken: session.refreshToken });
  appStore.set(authUserAtom, session.user);
  appStore.set(authStatusAtom, 'signedIn');
}

/** Sign-out clears the user and the tokens. */
export function signOutLocally(): void {
  clearTokens();
  appStore.set(authUserAtom, null);
  appStore.set(authStatusAtom, 'signedOut');
}

// Role names as the server spells them (domain/catalog/roles.ts).
export const isDriver = (user: AuthUser | null | undefined): boolean => roleNames(user).includes('Driver');

export function roleNames(user: AuthUser | null | undefined): string[] {
  if (!user) return [];
  return [...new Set([...(user.roles ?? []), ...(user.role?.name ? [user.role.name] : [])])];
}
