import { useAtomValue, useSetAtom } from 'jotai';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { authUserAtom } from '../state/session.ts';
import { settingsAtom } from '../state/settings.ts';
import { AppMenu } from './AppMenu.tsx';
import { menuOf, SidebarUser } from './AppSidebar.tsx';
import { homePathOf } from './guards.ts';
import { isActiveItem } from './menu.ts';

const panelId = 'two-column-panel';

/**
 * The 'two-column' navigation style: a rail of the menu's sections, and beside it a column with the
 * chosen section's entries (the open page's section until another is chosen). The header's menu
 * button folds the second column away; choosing a section brings it back.
 */
export default function TwoColumnNav({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  const setSettings = useSetAtom(settingsAtom);
  const [path] = useLocation();
  const [chosen, setChosen] = useState<string | null>(null);
  // Another page: its own section shows again.
  useEffect(() => setChosen(null), [path]);
  if (!user) return null;
  const sections = menuOf(user);
  const selectedId =
    chosen ?? sections.find((section) => isActiveItem(section, path))?.id ?? sections[0]?.id;
  const selected = sections.find((section) => section.id === selectedId);

  return (
    <aside
      className={`layout-two-column${collapsed ? ' is-collapsed' : ''}`}
      aria-label={t('sidebar.label')}
    >
      <div className="two-column-rail">
        <Link href={homePathOf(user)} className="rail-brand" aria-label={t('app.name')}>
          <span className="app-brand-mark" aria-hidden="true">
            <i className="pi pi-truck" />
          </span>
        </Link>
        <nav aria-label={t('sidebar.sections')}>
          <ul className="two-column-sections">
            {sections.map((section) => {
              const shown = !collapsed && section.id === selectedId;
              return (
                <li key={section.id}>
                  <button
                    type="button"
                    className={[
                      'two-column-section',
                      shown ? 'is-selected' : '',
                      isActiveItem(section, path) ? 'is-active-parent' : '',
                    ]
                      .filter(Boolean)
                      .join(' ')}
                    aria-expanded={shown}
                    aria-controls={panelId}
                    onClick={() => {
                      setChosen(section.id);
                      if (collapsed) setSettings({ navCollapsed: false });
                      else if (shown) setSettings({ navCollapsed: true });
                    }}
                  >
                    <i
                      className={`${section.icon ?? 'pi pi-folder'} rail-icon`}
                      aria-hidden="true"
                    />
                    <span className="two-column-section-label">{t(section.label)}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        </nav>
      </div>
      {!collapsed && selected && (
        <div id={panelId} className="two-column-panel">
          <div className="two-column-panel-head">
            <span className="app-brand-name">{t('app.name')}</span>
          </div>
          <SidebarUser user={user} />
          <p className="two-column-title">{t(selected.label)}</p>
          <nav className="sidebar-nav" aria-label={t('sidebar.navigation')}>
            <AppMenu items={selected.type === 'section' ? (selected.children ?? []) : [selected]} />
          </nav>
        </div>
      )}
    </aside>
  );
}
