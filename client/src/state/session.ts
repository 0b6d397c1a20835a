import { createStore, del, get, set, type UseStore } from 'idb-keyval';
import { atom, getDefaultStore } from 'jotai';
import type { Profile, Session } from '../../../domain/contracts/auth.contract.ts';
import { clearRuntimeCaches } from '../pwa/serviceWorker.ts';

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
  return accessToken
    ? { accessToken, refreshToken: store.getItem(tokenStorageKeys.refresh) }
    : null;
}

export function writeTokens(tokens: Tokens): void {
  memoryTokens.value = tokens;
  const store = storage();
  store?.setItem(tokenStorageKeys.access, tokens.accessToken);
  if (tokens.refreshToken) store?.setItem(tokenStorageKeys.refresh, tokens.refreshToken);
  else store?.removeItem(tokenStorageKeys.refresh);
}

/**
 * The signed-in user as last read, kept beside the tokens for one case: the driver's installed app
 * opened without a network shows its page with this user (GET /api/profile cannot answer). Removed
 * with the tokens at sign-out.
 */
const USER_KEY = 'user';

export function rememberUser(user: AuthUser): void {
  try {
    storage()?.setItem(USER_KEY, JSON.stringify(user));
  } catch {
    // storage full or disabled: the app then needs the network to start
  }
}

export function rememberedUser(): AuthUser | null {
  try {
    const kept = storage()?.getItem(USER_KEY);
    return kept ? (JSON.parse(kept) as AuthUser) : null;
  } catch {
    return null;
  }
}

export function clearTokens(): void {
  memoryTokens.value = null;
  storage()?.removeItem(USER_KEY);
  const handOvers = handOverStore();
  if (handOvers) void del(HAND_OVER_KEY, handOvers).catch(() => undefined);
  storage()?.removeItem(tokenStorageKeys.access);
  storage()?.removeItem(tokenStorageKeys.refresh);
}

/**
 * The last refreshes, as the tabs that made them left them for the others: which access token each
 * replaced and the pair it got, oldest first. A tab that waited for the refresh lock reads them
 * here, not from localStorage: another tab's localStorage write reaches this tab's copy a moment
 * later (Chromium keeps a copy per renderer process), so a waiter could still see the used refresh
 * token and present it again, which ends the session. IndexedDB answers every tab from the one committed database. Cleared
 * with the tokens at sign-out.
 */
export type TokenHandOver = { replaced: string; tokens: Tokens };
const HAND_OVER_KEY = 'freight-token-hand-over';
const HAND_OVERS_KEPT = 5;
const handOverStore = (): UseStore | undefined =>
  typeof indexedDB === 'undefined'
    ? undefined
    : (handOverDb ??= createStore('freight-auth', 'tokens'));
let handOverDb: UseStore | undefined;

export async function readTokenHandOvers(): Promise<TokenHandOver[]> {
  const store = handOverStore();
  if (!store) return [];
  try {
    const kept = await get<TokenHandOver[]>(HAND_OVER_KEY, store);
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

export async function recordTokenHandOver(handOver: TokenHandOver): Promise<void> {
  const store = handOverStore();
  if (!store) return;
  try {
    await set(
      HAND_OVER_KEY,
      [...(await readTokenHandOvers()), handOver].slice(-HAND_OVERS_KEPT),
      store,
    );
  } catch {
    // No IndexedDB (a private window, say): the tabs fall back to localStorage alone.
  }
}

export const authUserAtom = atom<AuthUser | null>(null);
export const authStatusAtom = atom<AuthStatus>(readTokens() ? 'checking' : 'signedOut');

/** The jotai store the app and the HTTP client share (the app renders without a Provider). */
export const appStore = getDefaultStore();

/** Sign-in success stores the tokens and the user. */
export function signInWith(session: Session): void {
  writeTokens({ accessToken: session.accessToken, refreshToken: session.refreshToken });
  rememberUser(session.user);
  appStore.set(authUserAtom, session.user);
  appStore.set(authStatusAtom, 'signedIn');
}

/** Sign-out clears the user, the tokens and the service worker's runtime caches. */
export function signOutLocally(): void {
  clearTokens();
  void clearRuntimeCaches();
  appStore.set(authUserAtom, null);
  appStore.set(authStatusAtom, 'signedOut');
}

// Role names as the server spells them (domain/catalog/roles.ts).
export const isDriver = (user: AuthUser | null | undefined): boolean =>
  roleNames(user).includes('Driver');

export function roleNames(user: AuthUser | null | undefined): string[] {
  if (!user) return [];
  return [...new Set([...(user.roles ?? []), ...(user.role?.name ? [user.role.name] : [])])];
}
