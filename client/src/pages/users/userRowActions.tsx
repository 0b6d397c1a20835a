import { useSetAtom } from 'jotai';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { apiDelete, apiGet, messageOf } from '../../api/http.ts';
import type { RowAction } from '../../components/table/tableTypes.ts';
import { notify } from '../../state/common.ts';
import { useMessageText } from '../../components/messages.ts';
import { editedUserAtom } from './editUser.ts';
import { RowActionId, type UserRow, type UserStatusChanged } from './users.api.ts';

/**
 * The row actions of a users table: edit, activate, block, and delete (a driver: the server lists
 * it on drivers' rows for who may), with the deletion confirmed first. `changed` runs after a change.
 */
export function useUserRowActions(changed: () => void): {
  actions: RowAction<UserRow>[];
  dialog: ReactNode;
} {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const messageText = useMessageText();
  const setEdited = useSetAtom(editedUserAtom);
  const [deleting, setDeleting] = useState<UserRow | null>(null);

  const change = async (row: UserRow, action: 'activate' | 'block') => {
    try {
      const answer = await apiGet<UserStatusChanged>(`/users/${action}/${row.id}`);
      notify(
        'success',
        messageText(answer?.message ?? (action === 'activate' ? 'User activated' : 'User blocked')),
      );
      changed();
    } catch (error) {
      notify('error', messageText(messageOf(error)));
    }
  };

  // A driver on an open tour stays (409): its message is shown and the row is left as it was.
  const remove = async (row: UserRow) => {
    try {
      await apiDelete<null>('/users/deleteDriver', { id: row.id });
      notify('success', t('usersAdmin.deleteDriver.deleted'));
      changed();
    } catch (error) {
      notify('error', messageText(messageOf(error)));
    }
  };

  const edit = (row: UserRow) => {
    setEdited(row);
    navigate(`/user/edit/${row.id}`);
  };

  const actions: RowAction<UserRow>[] = [
    { id: RowActionId.Edit, icon: 'pi pi-pencil', label: t('usersAdmin.edit'), onClick: edit },
    {
      id: RowActionId.Activate,
      icon: 'pi pi-check-circle',
      label: t('usersAdmin.activate'),
      severity: 'success',
      onClick: (row) => void change(row, 'activate'),
    },
    {
      id: RowActionId.Block,
      icon: 'pi pi-ban',
      label: t('usersAdmin.block'),
      severity: 'danger',
      onClick: (row) => void change(row, 'block'),
    },
    {
      id: RowActionId.Delete,
      icon: 'pi pi-trash',
      label: t('usersAdmin.delete'),
      severity: 'danger',
      onClick: setDeleting,
    },
  ];

  const dialog = (
    <ConfirmDialog
      visible={deleting !== null}
      onHide={() => setDeleting(null)}
      header={t('usersAdmin.deleteDriver.header')}
      message={deleting ? t('usersAdmin.deleteDriver.message', { name: deleting.name }) : ''}
      icon="pi pi-exclamation-triangle"
      acceptLabel={t('usersAdmin.delete')}
      rejectLabel={t('usersAdmin.deleteDriver.keep')}
      accept={() => {
        if (deleting) void remove(deleting);
      }}
    />
  );
  return { actions, dialog };
}
