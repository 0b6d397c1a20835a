import 'primeicons/primeicons.css';
import './styles.css';
import './i18n/index.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { applyTheme } from './app/theme.ts';
import { installDriverApp } from './pwa/serviceWorker.ts';
import { appStore } from './state/session.ts';
import { settingsAtom, settingsFromUrl } from './state/settings.ts';

// Theme changes carried by the URL (layout, mode, rtl, style, theme_mode, is_rtl, nav_style, theme_style).
const fromUrl = settingsFromUrl(window.location.search);
if (Object.keys(fromUrl).length > 0) appStore.set(settingsAtom, fromUrl);
// Before the first paint: no flash of the wrong theme or direction.
applyTheme(appStore.get(settingsAtom));

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The driver's page installs as an app: its service worker registers once /driver is shown.
installDriverApp();

// As a transition: React renders the first screen in slices of a few milliseconds, yielding to the
// browser between them, instead of one long task that blocks input while a phone works through it.
const root = createRoot(container);
startTransition(() => {
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
