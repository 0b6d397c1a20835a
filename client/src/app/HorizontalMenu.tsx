import { useAtomValue } from 'jotai';
import { Menubar } from 'primereact/menubar';
import type { MenuItem as PrimeMenuItem } from 'primereact/menuitem';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { authUserAtom, roleNames } from '../state/session.ts';
import { filterMenu, isActiveItem, menu, type MenuItem } from './menu.ts';

/** The horizontal navigation style: the same menu model as a top bar with drop-downs. */
export function HorizontalMenu() {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  const [path, navigate] = useLocation();
  if (!user) return null;

  const toPrime = (item: MenuItem): PrimeMenuItem => ({
    label: t(item.label),
    icon: item.icon,
    className: isActiveItem(item, path) ? 'is-active-parent' : undefined,
    items: item.children?.map(toPrime),
    command: item.to && !item.children ? () => navigate(item.to!) : undefined,
  });
  // Sections become the top-level entries; a section with one plain item is that item.
  const model = filterMenu(menu, user.permissions, roleNames(user)).map((section) =>
    section.children?.length === 1 && !section.children[0].children
      ? toPrime(section.children[0])
      : toPrime(section),
  );
  return (
    <nav className="horizontal-menu" aria-label={t('sidebar.navigation')}>
      <Menubar model={model} />
    </nav>
  );
}
