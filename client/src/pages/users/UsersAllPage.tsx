import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { userListStatuses } from '../../../../domain/catalog.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { GenericTable, type TableColumn, type TableFilter } from '../../components/table/GenericTable.tsx';
import { statusKey } from '../../components/StatusChip.tsx';
import { useUserRowActions } from './userRowActions.tsx';
import { fetchFilterableRoles, fetchOrganizations, type OrganizationChoice, type RoleChoice, shortDate, type UserRow } from './users.api.ts';
import './users.css';

/** /users/all: every user the caller may see, filtered by role, status and organization; edit, activate, block, delete a driver. */
export default function UsersAllPage({ titleKey }: PageProps) {
  const { t, i18n } = useTranslation();
  const [roles, setRoles] = useState<RoleChoice[]>([]);
  const [organizations, setOrganizations] = useState<OrganizationChoice[]>([]);
  const [refresh, setRefresh] = useState(0);

  useEffect(() => {
    // Each pick list is optional: a caller without the permission simply gets no such filter.
    fetchFilterableRoles().then(setRoles).catch(() => setRoles([]));
    fetchOrganizations().then(setOrganizations).catch(() => setOrganizations([]));
  }, []);

  const roleLabel = (name: string) => (i18n.exists(`usersAdmin.roles.${name}`) ? t(`usersAdmin.roles.${name}` as never) : name);
  const filters: TableFilter[] = [
    ...(roles.length > 0 ? [{ name: 'role', label: t('usersAdmin.role'), allLabel: t('usersAdmin.allRoles'), options: roles.map((role) => ({ value: role.id, label: roleLabel(role.name) })) }] : []),
    {
      name: 'status', label: t('usersAdmin.status'), allLabel: t('usersAdmin.allStatuses'),
      options: userListStatuses.map((status) => ({ value: status.id, label: t(`status.${statusKey(status.name)}` as never) })),
    },
    ...(organizations.length > 1 ? [{ name: 'organization', label: t('usersAdmin.organization'), allLabel: t('usersAdmin.allOrganizations'), options: organizations.map((item) => ({ value: String(item.id), label: item.name })) }] : []),
  ];

  const { actions, dialog } = useUserRowActions(() => setRefresh((value) => value + 1));

  const columns: TableColumn<UserRow>[] = [
    { field: 'name', header: t('signup.name'), sortable: true, body: (row) => <span className="cell-stack"><strong>{row.name}</strong><small>@{row.username}</small></span> },
    { field: 'email', header: t('signup.email'), sortable: true },
    { field: 'role', header: t('usersAdmin.role'), body: (row) => roleLabel(row.role) },
    { field: 'organization', header: t('usersAdmin.organization'), body: (row) => row.organization?.name ?? '—' },
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
        key={`${roles.length}-${organizations.length}`}
        title={t('usersAdmin.users')}
        url="/users"
        columns={columns}
        filters={filters}
        actions={actions}
        refreshKey={refresh}
        empty={<span className="table-empty">{t('usersAdmin.empty.users')}</span>}
      />
      {dialog}
    </section>
  );
}
