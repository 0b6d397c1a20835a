import { useAtom, useAtomValue } from 'jotai';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { navDrawerOpenAtom, type NavStyle, settingsAtom } from '../state/settings.ts';
import { AppFooter } from './AppFooter.tsx';
import { AppSidebar } from './AppSidebar.tsx';
import { AppTopbar } from './AppTopbar.tsx';
import { OrganizationWaiting } from './OrganizationWaiting.tsx';
import { TwoFactorRequired } from './TwoFactorRequired.tsx';
import { useOpenedOnce } from './useOpenedOnce.ts';

// The other navigation styles' code loads only where they are used: the drawer once it is first opened.
const HorizontalMenu = lazy(() =>
  import('./HorizontalMenu.tsx').then((module) => ({ default: module.HorizontalMenu })),
);
const NavDrawer = lazy(() => import('./NavDrawer.tsx'));
const RailNav = lazy(() => import('./RailNav.tsx'));
const TwoColumnNav = lazy(() => import('./TwoColumnNav.tsx'));

const smallScreenQuery = '(max-width: 991px)';

function useSmallScreen(): boolean {
  const [small, setSmall] = useState(
    () => typeof window.matchMedia === 'function' && window.matchMedia(smallScreenQuery).matches,
  );
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(smallScreenQuery);
    const update = () => setSmall(query.matches);
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return small;
}

/** The navigation style shown: the chosen one, or the drawer below 992 px wide (a phone, a tablet). */
export const shownNavStyle = (chosen: NavStyle, small: boolean): NavStyle =>
  small ? 'drawer' : chosen;

/**
 * The signed-in layout: the navigation in the chosen style, header, the page, footer.
 * - static: the full sidebar beside the page (the menu button hides and shows it);
 * - compact: a narrower, denser sidebar (hidden and shown the same way);
 * - collapsible: the full sidebar, folded to its icons by the menu button;
 * - mini: a rail of icons that unfolds over the page on pointer or keyboard focus;
 * - slim and slim-plus: a rail of icons (named in tooltips, or under each icon), groups in flyouts;
 * - reveal: tucked away at the edge, sliding out on pointer, focus or the menu button;
 * - two-column: a rail of sections and a column with the chosen section's entries;
 * - overlay: hidden, dropped over the page under the header by the menu button;
 * - drawer: a modal drawer opened by the menu button (every style below 992 px);
 * - horizontal: a top bar of drop-down menus under the header.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const settings = useAtomValue(settingsAtom);
  const [drawerOpen, setDrawerOpen] = useAtom(navDrawerOpenAtom);
  const drawerWanted = useOpenedOnce(drawerOpen);
  const [location] = useLocation();
  const small = useSmallScreen();
  const closePanel = useCallback(() => setDrawerOpen(false), [setDrawerOpen]);

  // A drawer or an overlay closes once the user has picked a page.
  useEffect(() => setDrawerOpen(false), [location, setDrawerOpen]);

  const nav = shownNavStyle(settings.navStyle, small);
  const hidden = (nav === 'static' || nav === 'compact') && settings.navCollapsed;
  const folded = nav === 'mini' || (nav === 'collapsible' && settings.navCollapsed);
  const sidebar = nav === 'static' || nav === 'compact' || nav === 'collapsible' || nav === 'mini';

  return (
    <div
      className={[
        'layout',
        `layout-nav-${nav}`,
        folded ? 'layout-folded' : '',
        hidden ? 'layout-nav-hidden' : '',
        settings.layout === 'boxed' ? 'layout-boxed' : '',
        settings.footer && settings.footerType === 'fixed' ? 'layout-footer-fixed' : '',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      <a href="#main" className="skip-link">
        {t('app.skipToContent')}
      </a>
      {sidebar && !hidden && <AppSidebar folded={folded} />}
      {(nav === 'overlay' || nav === 'reveal') && (
        <AppSidebar folded={false} panel={{ kind: nav, open: drawerOpen, close: closePanel }} />
      )}
      {(nav === 'slim' || nav === 'slim-plus') && (
        <Suspense fallback={<div className="layout-rail" />}>
          <RailNav labels={nav === 'slim-plus'} />
        </Suspense>
      )}
      {nav === 'two-column' && (
        <Suspense fallback={<div className="layout-two-column" />}>
          <TwoColumnNav collapsed={settings.navCollapsed} />
        </Suspense>
      )}
      {nav === 'drawer' && drawerWanted && (
        <Suspense fallback={null}>
          <NavDrawer />
        </Suspense>
      )}
      <div className="layout-main">
        <AppTopbar navStyle={nav} />
        {nav === 'horizontal' && (
          <Suspense fallback={null}>
            <HorizontalMenu />
          </Suspense>
        )}
        <main id="main" className="layout-content" tabIndex={-1}>
          <OrganizationWaiting />
          <TwoFactorRequired>{children}</TwoFactorRequired>
        </main>
        {settings.footer && <AppFooter />}
      </div>
    </div>
  );
}
