import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { type AuthUser, authUserAtom, roleNames } from '../state/session.ts';
import { AppMenu } from './AppMenu.tsx';
import { homePathOf } from './guards.ts';
import { filterMenu, menu } from './menu.ts';

export function initialsOf(text: string): string {
  const words = text
    .trim()
    .split(/[\s@._-]+/)
    .filter(Boolean);
  return (
    words
      .slice(0, 2)
      .map((word) => [...word][0])
      .join('') || '?'
  ).toUpperCase();
}

/** Rating entries shown in the sidebar of Shippers and Carriers: 'name: value' with two decimals. */
export function ratingEntries(user: AuthUser): { name: string; value: string }[] {
  const names = roleNames(user);
  if (!names.includes('Shipper') && !names.includes('Carrier')) return [];
  return Object.entries(user.ratings ?? {})
    .filter(([, value]) => typeof value === 'number' && Number.isFinite(value))
    .map(([name, value]) => ({ name, value: value.toFixed(2) }));
}

/** The sidebar: brand, the user's card (name or 'Admin User', ratings), and the menu filtered by permission. */
export function AppSidebar({ folded, inDrawer = false }: { folded: boolean; inDrawer?: boolean }) {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  if (!user) return null;
  const displayName = user.name?.trim() || t('sidebar.adminUser');
  const ratings = ratingEntries(user);
  const items = filterMenu(menu, user.permissions, roleNames(user));

  return (
    <aside
      className={`layout-sidebar${folded ? ' is-folded' : ''}${inDrawer ? ' in-drawer' : ''}`}
      aria-label={t('sidebar.label')}
    >
      <Link href={homePathOf(user)} className="app-brand sidebar-brand">
        <span className="app-brand-mark" aria-hidden="true">
          <i className="pi pi-truck" />
        </span>
        <span className="app-brand-name">{t('app.name')}</span>
      </Link>
      <div className="sidebar-user">
        <span className="sidebar-avatar" aria-hidden="true">
          {initialsOf(user.name || user.email || 'A')}
        </span>
        <div className="sidebar-user-text">
          <strong className="sidebar-user-name" dir="auto">
            {displayName}
          </strong>
          {user.organization?.name && (
            <span className="sidebar-user-org" dir="auto">
              {user.organization.name}
            </span>
          )}
          {ratings.length > 0 && (
            <ul className="sidebar-ratings" aria-label={t('sidebar.ratings')}>
              {ratings.map((rating) => (
                <li key={rating.name}>
                  <i className="pi pi-star-fill" aria-hidden="true" /> {rating.name}:{' '}
                  <span className="tabular">{rating.value}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      <nav className="sidebar-nav" aria-label={t('sidebar.navigation')}>
        <AppMenu items={items} />
      </nav>
    </aside>
  );
}
