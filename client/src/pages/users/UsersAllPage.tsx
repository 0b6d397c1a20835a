import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userListStatuses } from '../../../../domain/catalog.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { GenericTable } from '../../components/table/GenericTable.tsx';
import type { TableFilter } from '../../components/table/tableTypes.ts';
import { statusKey } from '../../components/StatusChip.tsx';
import { useUserRowActions } from './userRowActions.tsx';
import { UsersPageHeader, userColumns } from './usersList.tsx';
import {
  fetchFilterableRoles,
  fetchOrganizations,
  type OrganizationChoice,
  type RoleChoice,
  type UserRow,
} from './users.api.ts';
import '../../shared/styles/users.css';

/** /users/all: every user the caller may see, filtered by role, status and organization; edit, activate, block, delete a driver. */
export default function UsersAllPage({ titleKey }: PageProps) {
  const { t, i18n } = useTranslation();
  const [roles, setRoles] = useState<RoleChoice[]>([]);
  const [organizations, setOrganizations] = useState<OrganizationChoice[]>([]);
  const [refresh, setRefresh] = useState(0);

  useEffect(() => {
    // Each pick list is optional: a caller without the permission simply gets no such filter.
    fetchFilterableRoles()
      .then(setRoles)
      .catch(() => setRoles([]));
    fetchOrganizations()
      .then(setOrganizations)
      .catch(() => setOrganizations([]));
  }, []);

  const roleLabel = (name: string) =>
    i18n.exists(`usersAdmin.roles.${name}`) ? t(`usersAdmin.roles.${name}` as never) : name;
  const filters: TableFilter[] = [
    ...(roles.length > 0
      ? [
          {
            name: 'role',
            label: t('usersAdmin.role'),
            allLabel: t('usersAdmin.allRoles'),
            options: roles.map((role) => ({ value: role.id, label: roleLabel(role.name) })),
          },
        ]
      : []),
    {
      name: 'status',
      label: t('usersAdmin.status'),
      allLabel: t('usersAdmin.allStatuses'),
      options: userListStatuses.map((status) => ({
        value: status.id,
        label: t(`status.${statusKey(status.name)}` as never),
      })),
    },
    ...(organizations.length > 1
      ? [
          {
            name: 'organization',
            label: t('usersAdmin.organization'),
            allLabel: t('usersAdmin.allOrganizations'),
            options: organizations.map((item) => ({ value: String(item.id), label: item.name })),
          },
        ]
      : []),
  ];

  const { actions, dialog } = useUserRowActions(() => setRefresh((value) => value + 1));

  const columns = userColumns(t, i18n.resolvedLanguage ?? 'en', {
    organizationHeader: t('usersAdmin.organization'),
    role: roleLabel,
  });

  return (
    <section className="page users-page">
      <UsersPageHeader titleKey={titleKey} />
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
