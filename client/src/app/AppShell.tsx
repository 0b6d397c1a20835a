import { useAtom, useAtomValue } from 'jotai';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { navDrawerOpenAtom, settingsAtom } from '../state/settings.ts';
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

/** The signed-in layout: sidebar (or top menu, or drawer), header, the page, footer. */
export function AppShell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const settings = useAtomValue(settingsAtom);
  const [drawerOpen, setDrawerOpen] = useAtom(navDrawerOpenAtom);
  const drawerWanted = useOpenedOnce(drawerOpen);
  const [location] = useLocation();
  const small = useSmallScreen();

  // A drawer closes once the user has picked a page.
  useEffect(() => setDrawerOpen(false), [location, setDrawerOpen]);

  const nav = small ? 'drawer' : settings.navStyle;
  const folded = nav === 'mini' || (nav === 'collapsible' && settings.navCollapsed);
  const showStaticSidebar = nav === 'default' || nav === 'mini' || nav === 'collapsible';

  return (
    <div
      className={[
        'layout',
        `layout-nav-${nav}`,
        folded ? 'layout-folded' : '',
        settings.layout === 'boxed' ? 'layout-boxed' : '',
        settings.footer && settings.footerType === 'fixed' ? 'layout-footer-fixed' : '',
      ].join(' ')}
    >
      <a href="#main" className="skip-link">
        {t('app.skipToContent')}
      </a>
      {showStaticSidebar && <AppSidebar folded={folded} />}
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
