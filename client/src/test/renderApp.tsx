import { act, render } from '@testing-library/react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../app/App.tsx';
import i18n from '../i18n/index.ts';
import { accountOpenAtom } from '../state/common.ts';
import {
  type AuthUser,
  appStore,
  authStatusAtom,
  authUserAtom,
  clearTokens,
} from '../state/session.ts';
import {
  customizerOpenAtom,
  defaultSettings,
  initialPathAtom,
  settingsAtom,
} from '../state/settings.ts';

/** Resets the shared state: signed out (or signed in as `user`), English, default settings. */
export async function resetApp(user: AuthUser | null = null) {
  clearTokens();
  window.localStorage.clear();
  await act(async () => {
    await i18n.changeLanguage('en');
  });
  appStore.set(settingsAtom, { ...defaultSettings });
  appStore.set(initialPathAtom, null);
  appStore.set(accountOpenAtom, false);
  appStore.set(customizerOpenAtom, false);
  appStore.set(authUserAtom, user);
  appStore.set(authStatusAtom, user ? 'signedIn' : 'signedOut');
}

/** Renders the whole app at a path, as the user would open it, and returns its location history. */
export function renderAppAt(path: string) {
  const location = memoryLocation({ path, record: true });
  const view = render(
    <Router hook={location.hook}>
      <App />
    </Router>,
  );
  return { location, current: () => location.history?.at(-1), ...view };
}
