import { useAtomValue } from 'jotai';
import { PrimeReactProvider } from 'primereact/api';
import { lazy, Suspense, useEffect } from 'react';
import { accountOpenAtom } from '../state/common.ts';
import { customizerOpenAtom, settingsAtom } from '../state/settings.ts';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { GlobalNotifier } from '../components/GlobalNotifier.tsx';
import { AppRoutes } from './AppRoutes.tsx';
import { AuthBootstrap } from './AuthBootstrap.tsx';
import { PickupHoldAlerts } from './PickupHoldAlerts.tsx';
import { applyTheme } from './theme.ts';
import { useDialogFocusReturn } from './useDialogFocusReturn.ts';
import { useOpenedOnce } from './useOpenedOnce.ts';

const AccountSettingsDialog = lazy(() => import('../pages/account/AccountSettingsDialog.tsx'));
// Few users open the settings drawer: its code loads when it first opens.
const Customizer = lazy(() => import('./Customizer.tsx'));

/**
 * Keeps the document (theme stylesheet, colours, direction, layout attributes) in step with the
 * settings, and with the system's light or dark preference while the mode is 'system'.
 */
function ThemeSync() {
  const settings = useAtomValue(settingsAtom);
  useEffect(() => {
    applyTheme(settings);
    if (settings.mode !== 'system' || typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia('(prefers-color-scheme: light)');
    const follow = () => applyTheme(settings);
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [settings]);
  return null;
}

/**
 * Every Dropdown's labelled combobox is the control assistive technology uses: the chevron beside it
 * and the hidden <select> PrimeReact keeps for forms would otherwise be an unnamed button and an
 * unlabelled select to a screen reader.
 */
const primeReactSettings = {
  ripple: true,
  pt: { dropdown: { trigger: { 'aria-hidden': true }, select: { 'aria-hidden': true } } },
};

/** The application: theme, startup token check, the routed shell, the dock's hold alerts, the global notifier and the dialogs. */
export function App() {
  const accountOpen = useAtomValue(accountOpenAtom);
  const customizerWanted = useOpenedOnce(useAtomValue(customizerOpenAtom));
  useDialogFocusReturn();
  return (
    <PrimeReactProvider value={primeReactSettings}>
      <ErrorBoundary>
        <ThemeSync />
        <AuthBootstrap>
          <AppRoutes />
          <PickupHoldAlerts />
          {accountOpen && (
            <Suspense fallback={null}>
              <AccountSettingsDialog />
            </Suspense>
          )}
        </AuthBootstrap>
        {customizerWanted && (
          <Suspense fallback={null}>
            <Customizer />
          </Suspense>
        )}
        <GlobalNotifier />
      </ErrorBoundary>
    </PrimeReactProvider>
  );
}
