import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { authUserAtom } from '../state/session.ts';
import { MenuNode } from './AppMenu.tsx';
import { menuOf } from './AppSidebar.tsx';
import { isActiveItem, type MenuItem } from './menu.ts';
import { useDismiss } from './useDismiss.ts';

function TopEntry({
  item,
  path,
  open,
  setOpen,
}: {
  item: MenuItem;
  path: string;
  open: boolean;
  setOpen: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const entry = useRef<HTMLLIElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setOpen(false), [setOpen]);
  useDismiss(entry, open, close, button);
  const active = isActiveItem(item, path);
  const label = t(item.label);

  if (!item.children)
    return (
      <li>
        <Link
          href={item.to ?? '#'}
          className={`top-link${active ? ' is-active' : ''}`}
          aria-current={active ? 'page' : undefined}
        >
          {item.icon && <i className={`${item.icon} top-icon`} aria-hidden="true" />}
          <span>{label}</span>
        </Link>
      </li>
    );

  const listId = `top-${item.id}`;
  return (
    <li ref={entry} className="top-entry">
      <button
        ref={button}
        type="button"
        className={`top-link${active ? ' is-active-parent' : ''}${open ? ' is-open' : ''}`}
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen(!open)}
      >
        {item.icon && <i className={`${item.icon} top-icon`} aria-hidden="true" />}
        <span>{label}</span>
        <i
          className={`pi pi-angle-down menu-chevron${open ? ' is-open' : ''}`}
          aria-hidden="true"
        />
      </button>
      {open && (
        <div id={listId} className="top-dropdown">
          <ul className="menu-list">
            {item.children.map((child) => (
              <MenuNode key={child.id} item={child} path={path} depth={1} />
            ))}
          </ul>
        </div>
      )}
    </li>
  );
}

/**
 * The horizontal navigation style: the menu's sections as a bar under the header, each opening a
 * drop-down with its entries (groups unfold inside it); a section of one plain entry is that entry.
 * Every entry is a link; Tab and Enter reach them all, Escape closes a drop-down.
 */
export function HorizontalMenu() {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  const [path] = useLocation();
  const [openId, setOpenId] = useState<string | null>(null);
  // A drop-down closes once a page is picked.
  useEffect(() => setOpenId(null), [path]);
  if (!user) return null;
  const entries = menuOf(user).map((section) =>
    section.children?.length === 1 && !section.children[0].children ? section.children[0] : section,
  );
  return (
    <nav className="horizontal-menu" aria-label={t('sidebar.navigation')}>
      <ul className="top-menu">
        {entries.map((item) => (
          <TopEntry
            key={item.id}
            item={item}
            path={path}
            open={openId === item.id}
            setOpen={(open) => setOpenId(open ? item.id : null)}
          />
        ))}
      </ul>
    </nav>
  );
}
