import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { authUserAtom } from '../state/session.ts';
import { MenuNode } from './AppMenu.tsx';
import { initialsOf, menuOf } from './AppSidebar.tsx';
import { homePathOf } from './guards.ts';
import { isActiveItem, type MenuItem } from './menu.ts';
import { useDismiss } from './useDismiss.ts';

/** A group's entries beside the rail, level with its button and kept inside the window. */
function Flyout({
  id,
  item,
  path,
  anchor,
}: {
  id: string;
  item: MenuItem;
  path: string;
  anchor: HTMLElement | null;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState<number | null>(null);
  // Beside the rail (the stylesheet puts it on the rail's inline-end side: the right in English, the
  // left in Arabic), level with its button and inside the window; placed again whenever its size
  // changes (a group unfolding inside it) or the window's does.
  useLayoutEffect(() => {
    const panel = ref.current;
    const rail = anchor?.closest('.layout-rail');
    if (!panel || !anchor || !rail) return;
    const place = () => {
      const railTop = rail.getBoundingClientRect().top;
      const wanted = anchor.getBoundingClientRect().top;
      const lowest = window.innerHeight - panel.offsetHeight - 8;
      setTop(Math.round(Math.max(8, Math.min(wanted, lowest)) - railTop));
    };
    place();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(place);
    observer?.observe(panel);
    window.addEventListener('resize', place);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', place);
    };
  }, [anchor]);
  return (
    <div
      ref={ref}
      id={id}
      className="rail-flyout"
      style={{ top: top ?? 0, visibility: top === null ? 'hidden' : undefined }}
    >
      <p className="rail-flyout-title">{t(item.label)}</p>
      <ul className="menu-list">
        {item.children?.map((child) => (
          <MenuNode key={child.id} item={child} path={path} depth={1} />
        ))}
      </ul>
    </div>
  );
}

function RailEntry({
  item,
  path,
  gap,
  open,
  setOpen,
}: {
  item: MenuItem;
  path: string;
  gap: boolean;
  open: boolean;
  setOpen: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const label = t(item.label);
  const active = isActiveItem(item, path);
  const entry = useRef<HTMLLIElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), [setOpen]);
  useDismiss(entry, open, close, button);
  const className = `rail-link${active ? ' is-active' : ''}`;

  if (!item.children)
    return (
      <li className={gap ? 'rail-gap' : undefined}>
        <Link
          href={item.to ?? '#'}
          className={className}
          aria-current={active ? 'page' : undefined}
        >
          <i className={`${item.icon ?? 'pi pi-circle'} rail-icon`} aria-hidden="true" />
          <span className="rail-label">{label}</span>
        </Link>
      </li>
    );

  const flyoutId = `rail-${item.id}`;
  return (
    <li ref={entry} className={gap ? 'rail-gap' : undefined}>
      <button
        ref={button}
        type="button"
        className={`${className}${open ? ' is-open' : ''}`}
        aria-expanded={open}
        aria-controls={flyoutId}
        onClick={() => setOpen(!open)}
      >
        <i className={`${item.icon ?? 'pi pi-folder'} rail-icon`} aria-hidden="true" />
        <span className="rail-label">{label}</span>
        <i className="pi pi-angle-right rail-more flip-rtl" aria-hidden="true" />
      </button>
      {open && <Flyout id={flyoutId} item={item} path={path} anchor={button.current} />}
    </li>
  );
}

/**
 * The 'slim' and 'slim-plus' navigation styles: a narrow rail of icons, every entry one click away.
 * Slim names its icons in a tooltip (on pointer and keyboard focus); slim-plus writes a small label
 * under each. A group opens its entries in a flyout beside the rail.
 */
export default function RailNav({ labels }: { labels: boolean }) {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  const [path] = useLocation();
  const [openId, setOpenId] = useState<string | null>(null);
  // A flyout closes once a page is picked.
  useEffect(() => setOpenId(null), [path]);
  if (!user) return null;
  const displayName = user.name?.trim() || t('sidebar.adminUser');
  // Sections become gaps in the rail; their entries are its icons.
  const entries = menuOf(user).flatMap((section, index) =>
    (section.type === 'section' ? (section.children ?? []) : [section]).map((item, at) => ({
      item,
      gap: index > 0 && at === 0,
    })),
  );

  return (
    <aside className={`layout-rail${labels ? ' has-labels' : ''}`} aria-label={t('sidebar.label')}>
      <Link href={homePathOf(user)} className="rail-brand" aria-label={t('app.name')}>
        <span className="app-brand-mark" aria-hidden="true">
          <i className="pi pi-truck" />
        </span>
      </Link>
      <nav className="rail-nav" aria-label={t('sidebar.navigation')}>
        <ul className="rail-list">
          {entries.map(({ item, gap }) => (
            <RailEntry
              key={item.id}
              item={item}
              path={path}
              gap={gap}
              open={openId === item.id}
              setOpen={(open) => setOpenId(open ? item.id : null)}
            />
          ))}
        </ul>
      </nav>
      <div className="rail-user" title={displayName}>
        <span className="sidebar-avatar" aria-hidden="true">
          {initialsOf(user.name || user.email || 'A')}
        </span>
        <span className="visually-hidden">{displayName}</span>
      </div>
    </aside>
  );
}
