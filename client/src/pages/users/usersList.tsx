import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { TableColumn } from '../../components/table/tableTypes.ts';
import { formatDate } from '../../shared/format.ts';
import type { UserRow } from './users.api.ts';

/** The title of a users list and its 'Add New' button (to /user/create). */
export function UsersPageHeader({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <header className="page-header">
      <h1>{t(titleKey as never)}</h1>
      <Link href="/user/create" className="p-button p-component">
        <i className="pi pi-user-plus p-button-icon p-button-icon-left" aria-hidden="true" />
        <span className="p-button-label">{t('menu.addNew')}</span>
      </Link>
    </header>
  );
}

/**
 * The columns of a users list: name (with the username), e-mail, the organization under
 * `organizationHeader`, phone, registration date and status; `role` adds the role after the e-mail.
 */
export function userColumns(
  t: TFunction,
  language: string,
  options: { organizationHeader: string; role?: (name: string) => string },
): TableColumn<UserRow>[] {
  const { role } = options;
  return [
    {
      field: 'name',
      header: t('signup.name'),
      sortable: true,
      body: (row) => (
        <span className="cell-stack">
          <strong>{row.name}</strong>
          <small>@{row.username}</small>
        </span>
      ),
    },
    { field: 'email', header: t('signup.email'), sortable: true },
    ...(role
      ? [{ field: 'role', header: t('usersAdmin.role'), body: (row: UserRow) => role(row.role) }]
      : []),
    {
      field: 'organization',
      header: options.organizationHeader,
      body: (row) => row.organization?.name ?? '—',
    },
    { field: 'phone', header: t('signup.phone'), numeric: true },
    {
      field: 'createdAt',
      header: t('usersAdmin.registered'),
      sortable: true,
      numeric: true,
      body: (row) => formatDate(row.createdAt, language),
    },
    { field: 'status', header: t('usersAdmin.status'), sortable: true },
  ];
}
