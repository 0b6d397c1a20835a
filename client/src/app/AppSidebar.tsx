import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { type AuthUser, authUserAtom, roleNames } from '../state/session.ts';
import { AppMenu } from './AppMenu.tsx';
import { homePathOf } from './guards.ts';
import { filterMenu, menu } from './menu.ts';
import { useDismiss } from './useDismiss.ts';

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

/** The menu a user sees: by permission, and the driver's own entry for drivers only. */
export const menuOf = (user: AuthUser) => filterMenu(menu, user.permissions, roleNames(user));

/** The user's card: initials, the name or 'Admin User', the organisation and the ratings. */
export function SidebarUser({ user }: { user: AuthUser }) {
  const { t } = useTranslation();
  const displayName = user.name?.trim() || t('sidebar.adminUser');
  const ratings = ratingEntries(user);
  return (
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
  );
}

/**
 * A panel that slides over the page: the 'overlay' style (opened by the header's menu button) and
 * the 'reveal' style (tucked away at the edge, out on pointer or focus, or by the menu button).
 */
export type SidebarPanel = { kind: 'overlay' | 'reveal'; open: boolean; close: () => void };

/** The sidebar: brand, the user's card (name or 'Admin User', ratings), and the menu filtered by permission. */
export function AppSidebar({
  folded,
  inDrawer = false,
  panel,
}: {
  folded: boolean;
  inDrawer?: boolean;
  panel?: SidebarPanel;
}) {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  const ref = useRef<HTMLElement>(null);
  const open = panel?.open ?? false;
  useDismiss(ref, open, panel?.close ?? noop);
  // Opened by the menu button: the focus moves into the panel, to its first entry.
  useEffect(() => {
    if (open)
      ref.current?.querySelector<HTMLElement>('.sidebar-nav a, .sidebar-nav button')?.focus();
  }, [open]);
  if (!user) return null;
  const items = menuOf(user);

  return (
    <aside
      ref={ref}
      className={[
        'layout-sidebar',
        folded ? 'is-folded' : '',
        inDrawer ? 'in-drawer' : '',
        panel ? `is-${panel.kind}` : '',
        open ? 'is-open' : '',
      ]
        .filter(Boolean)
        .join(' ')}
      aria-label={t('sidebar.label')}
      // A closed overlay is out of the way of the keyboard too; a tucked-away reveal panel is not
      // (the focus reaching it brings it out).
      inert={panel?.kind === 'overlay' && !open ? true : undefined}
    >
      {panel?.kind === 'reveal' && (
        <span className="reveal-handle" aria-hidden="true">
          <i className="pi pi-angle-double-right flip-rtl" />
        </span>
      )}
      {/* Named for the folded rail too, where only the mark shows. */}
      <Link href={homePathOf(user)} className="app-brand sidebar-brand" aria-label={t('app.name')}>
        <span className="app-brand-mark" aria-hidden="true">
          <i className="pi pi-truck" />
        </span>
        <span className="app-brand-name">{t('app.name')}</span>
      </Link>
      <SidebarUser user={user} />
      <nav className="sidebar-nav" aria-label={t('sidebar.navigation')}>
        <AppMenu items={items} />
      </nav>
    </aside>
  );
}

const noop = () => undefined;
