import { useAtom, useAtomValue, useSetAtom } from 'jotai';
import { Button } from 'primereact/button';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { LanguageSwitcher } from '../components/LanguageSwitcher.tsx';
import { authUserAtom } from '../state/session.ts';
import { navDrawerOpenAtom, type NavStyle, settingsAtom } from '../state/settings.ts';
import { CustomizerButton } from './CustomizerButton.tsx';
import { homePathOf } from './guards.ts';
import { NotificationBell } from './NotificationBell.tsx';
import { UserMenu } from './UserMenu.tsx';

/** The header: menu toggle, brand (where the sidebar does not show it), language, theme, bell, user. */
export function AppTopbar({ navStyle }: { navStyle: NavStyle }) {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  const settings = useAtomValue(settingsAtom);
  const setSettings = useSetAtom(settingsAtom);
  const [panelOpen, setPanelOpen] = useAtom(navDrawerOpenAtom);
  // What the menu button does in each style; the rail styles and the top bar need none.
  const folds = ['static', 'compact', 'collapsible', 'two-column'].includes(navStyle);
  const opens = ['drawer', 'overlay', 'reveal'].includes(navStyle);
  const toggle = folds
    ? () => setSettings({ navCollapsed: !settings.navCollapsed })
    : opens
      ? () => setPanelOpen(!panelOpen)
      : null;
  // Whether the menu it governs shows; the modal drawer is a dialog of its own.
  const expanded = folds ? !settings.navCollapsed : navStyle === 'drawer' ? undefined : panelOpen;
  const showBrand = ['drawer', 'horizontal', 'overlay', 'reveal'].includes(navStyle);

  return (
    <header className="app-topbar">
      {toggle && (
        <Button
          type="button"
          icon="pi pi-bars"
          rounded
          text
          className="topbar-icon-button"
          aria-label={t('header.toggleMenu')}
          aria-expanded={expanded}
          data-nav-toggle=""
          onClick={toggle}
        />
      )}
      {showBrand && user && (
        <Link href={homePathOf(user)} className="app-brand" aria-label={t('app.name')}>
          <span className="app-brand-mark" aria-hidden="true">
            <i className="pi pi-truck" />
          </span>
          <span className="app-brand-name">{t('app.name')}</span>
        </Link>
      )}
      <div className="topbar-spacer" />
      <div className="topbar-actions">
        <LanguageSwitcher compact />
        <CustomizerButton />
        <NotificationBell />
        <UserMenu />
      </div>
    </header>
  );
}
