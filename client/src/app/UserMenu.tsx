import { useAtomValue, useSetAtom } from 'jotai';
import { Menu } from 'primereact/menu';
import type { MenuItem } from 'primereact/menuitem';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { apiPost } from '../api/http.ts';
import { accountOpenAtom } from '../state/common.ts';
import { authUserAtom, isDriver, readTokens, signOutLocally } from '../state/session.ts';
import { initialsOf } from './AppSidebar.tsx';

/** Signs out: the refresh token's family is revoked on the server (best effort), then the user is cleared. */
export async function logout(): Promise<void> {
  const refreshToken = readTokens()?.refreshToken;
  signOutLocally();
  if (refreshToken)
    await apiPost('/logout', { refreshToken }, { auth: false }).catch(() => undefined);
}

/** The header's user button: name (or e-mail), and the menu 'My account' (not for drivers) and 'Logout'. */
export function UserMenu() {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  const openAccount = useSetAtom(accountOpenAtom);
  const menu = useRef<Menu>(null);
  if (!user) return null;
  const shown = user.name?.trim() || user.email || user.username || '';

  const items: MenuItem[] = [
    ...(isDriver(user)
      ? []
      : [
          {
            label: t('header.myAccount'),
            icon: 'pi pi-user-edit',
            command: () => openAccount(true),
          },
        ]),
    { label: t('header.logout'), icon: 'pi pi-sign-out', command: () => void logout() },
  ];

  return (
    <>
      <button
        type="button"
        className="user-button"
        aria-haspopup="menu"
        aria-controls="user-menu"
        aria-label={t('header.userMenu', { name: shown })}
        onClick={(event) => menu.current?.toggle(event)}
      >
        <span className="user-avatar" aria-hidden="true">
          {initialsOf(shown || 'U')}
        </span>
        <span className="user-name" dir="auto">
          {shown}
        </span>
        <i className="pi pi-angle-down" aria-hidden="true" />
      </button>
      <Menu model={items} popup ref={menu} id="user-menu" popupAlignment="right" />
    </>
  );
}
