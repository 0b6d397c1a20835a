import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { Role, userListStatuses } from '../../../../domain/catalog.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { GenericTable, type TableColumn } from '../../components/table/GenericTable.tsx';
import { useUserRowActions } from './userRowActions.tsx';
import { shortDate, type UserRow, withFilters } from './users.api.ts';
import './users.css';

/** From the route's title: which status the list shows. */
function statusOf(titleKey: string): (typeof userListStatuses)[number] {
  const slug = titleKey.endsWith('Blocked') ? 'blocked' : titleKey.endsWith('Pending') ? 'pending' : 'active';
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

  const columns: TableColumn<UserRow>[] = [
    { field: 'name', header: t('signup.name'), sortable: true, body: (row) => <span className="cell-stack"><strong>{row.name}</strong><small>@{row.username}</small></span> },
    { field: 'email', header: t('signup.email'), sortable: true },
    { field: 'organization', header: t('usersAdmin.carrier'), body: (row) => row.organization?.name ?? '—' },
    { field: 'phone', header: t('signup.phone'), numeric: true },
    { field: 'createdAt', header: t('usersAdmin.registered'), sortable: true, numeric: true, body: (row) => shortDate(row.createdAt, i18n.resolvedLanguage ?? 'en') },
    { field: 'status', header: t('usersAdmin.status'), sortable: true },
  ];

  return (
    <section className="page users-page">
      <header className="page-header">
        <h1>{t(titleKey)}</h1>
        <Link href="/user/create" className="p-button p-component">
          <i className="pi pi-user-plus p-button-icon p-button-icon-left" aria-hidden="true" />
          <span className="p-button-label">{t('menu.addNew')}</span>
        </Link>
      </header>
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
