import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Role, userListStatuses } from '../../../../domain/catalog.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { GenericTable } from '../../components/table/GenericTable.tsx';
import { useUserRowActions } from './userRowActions.tsx';
import { UsersPageHeader, userColumns } from './usersList.tsx';
import { type UserRow, withFilters } from './users.api.ts';
import '../../shared/styles/users.css';

/** From the route's title: which status the list shows. */
function statusOf(titleKey: string): (typeof userListStatuses)[number] {
  const slug = titleKey.endsWith('Blocked')
    ? 'blocked'
    : titleKey.endsWith('Pending')
      ? 'pending'
      : 'active';
  return userListStatuses.find((entry) => entry.slug === slug)!;
}

/**
 * /users/drivers/{active, blocked, pending}: drivers by their own status, the server filtering
 * (a Superadmin sees every driver with its carrier, a carrier its own); edit, activate, block, delete.
 */
export default function DriversPage({ titleKey }: PageProps) {
  const { t, i18n } = useTranslation();
  const status = statusOf(titleKey);
  const [refresh, setRefresh] = useState(0);
  const { actions, dialog } = useUserRowActions(() => setRefresh((value) => value + 1));

  const columns = userColumns(t, i18n.resolvedLanguage ?? 'en', {
    organizationHeader: t('usersAdmin.carrier'),
  });

  return (
    <section className="page users-page">
      <UsersPageHeader titleKey={titleKey} />
      <GenericTable<UserRow>
        key={status.slug}
        title={t('usersAdmin.drivers')}
        url={withFilters('/users', { role: Role.Driver, status: status.id })}
        columns={columns}
        actions={actions}
        refreshKey={refresh}
        empty={<span className="table-empty">{t('usersAdmin.empty.drivers')}</span>}
      />
      {dialog}
    </section>
  );
}
