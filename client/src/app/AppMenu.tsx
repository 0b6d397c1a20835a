import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { isActiveItem, type MenuItem } from './menu.ts';

/** One entry of the menu: a section, a group that unfolds, or a link. */
export function MenuNode({ item, path, depth }: { item: MenuItem; path: string; depth: number }) {
  const { t } = useTranslation();
  const active = isActiveItem(item, path);
  const [open, setOpen] = useState(true);
  const [groupOpen, setGroupOpen] = useState(active);
  const label = t(item.label);

  if (item.type === 'section') {
    const listId = `menu-${item.id}`;
    return (
      <li className={`menu-section${active ? ' is-active-parent' : ''}`}>
        <button
          type="button"
          className="menu-section-title"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen(!open)}
        >
          <span>{label}</span>
          <i
            className={`pi ${open ? 'pi-chevron-down' : 'pi-chevron-right flip-rtl'}`}
            aria-hidden="true"
          />
        </button>
        {open && (
          <ul id={listId} className="menu-list">
            {item.children?.map((child) => (
              <MenuNode key={child.id} item={child} path={path} depth={depth + 1} />
            ))}
          </ul>
        )}
      </li>
    );
  }

  if (item.children) {
    const listId = `menu-${item.id}`;
    const expanded = groupOpen || active;
    return (
      <li className={`menu-group${active ? ' is-active-parent' : ''}`}>
        <button
          type="button"
          className="menu-link menu-group-toggle"
          style={{ paddingInlineStart: `${0.75 + (depth - 1) * 0.75}rem` }}
          aria-expanded={expanded}
          aria-controls={listId}
          title={label}
          onClick={() => setGroupOpen(!expanded)}
        >
          {item.icon && <i className={`${item.icon} menu-icon`} aria-hidden="true" />}
          <span className="menu-label">{label}</span>
          <i
            className={`pi pi-angle-down menu-chevron${expanded ? ' is-open' : ''}`}
            aria-hidden="true"
          />
        </button>
        {expanded && (
          <ul id={listId} className="menu-list menu-sublist">
            {item.children.map((child) => (
              <MenuNode key={child.id} item={child} path={path} depth={depth + 1} />
            ))}
          </ul>
        )}
      </li>
    );
  }

  return (
    <li>
      <Link
        href={item.to ?? '#'}
        className={`menu-link${active ? ' is-active' : ''}`}
        style={{ paddingInlineStart: `${0.75 + (depth - 1) * 0.75}rem` }}
        aria-current={active ? 'page' : undefined}
        title={label}
      >
        {item.icon && <i className={`${item.icon} menu-icon`} aria-hidden="true" />}
        <span className="menu-label">{label}</span>
      </Link>
    </li>
  );
}

/** The side menu: sections, collapsible groups and items; a parent is highlighted when a descendant is open. */
export function AppMenu({ items }: { items: MenuItem[] }) {
  const [path] = useLocation();
  return (
    <ul className="menu-root">
      {items.map((item) => (
        <MenuNode key={item.id} item={item} path={path} depth={1} />
      ))}
    </ul>
  );
}
