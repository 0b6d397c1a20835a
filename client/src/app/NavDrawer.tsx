import { useAtom, useAtomValue } from 'jotai';
import { Sidebar } from 'primereact/sidebar';
import { useTranslation } from 'react-i18next';
import { navDrawerOpenAtom, settingsAtom } from '../state/settings.ts';
import { AppSidebar } from './AppSidebar.tsx';

/** The navigation as a drawer (small screens and the 'drawer' style), opened by the header's menu button. */
export default function NavDrawer() {
  const { t } = useTranslation();
  const { rtl } = useAtomValue(settingsAtom);
  const [open, setOpen] = useAtom(navDrawerOpenAtom);
  return (
    <Sidebar
      visible={open}
      onHide={() => setOpen(false)}
      // Opened from the keyboard too: the focus moves into the drawer, to the menu's first entry.
      onShow={() =>
        document
          .querySelector<HTMLElement>(
            '.layout-drawer .sidebar-nav a, .layout-drawer .sidebar-nav button',
          )
          ?.focus()
      }
      position={rtl ? 'right' : 'left'}
      className="layout-drawer"
      showCloseIcon={false}
      ariaCloseLabel={t('common.close')}
    >
      <AppSidebar folded={false} inDrawer />
    </Sidebar>
  );
}
