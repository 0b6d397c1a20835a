import { formatDate } from '../../shared/format.ts';
import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userListStatuses } from '../../../../domain/catalog.ts';
import { apiPut, messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { GenericTable } from '../../components/table/GenericTable.tsx';
import type { RowAction, TableColumn } from '../../components/table/tableTypes.ts';
import { notify } from '../../state/common.ts';
import { openStoredFile } from '../../shared/storedFile.ts';
import { useMessageText } from '../../components/messages.ts';
import {
  type OrganizationRow,
  type OrganizationStatus,
  RowActionId,
  withStatus,
} from './users.api.ts';
import { CarrierAuthorityBadge } from './CarrierAuthority.tsx';
import '../../shared/styles/users.css';

const documentKeys = [
  'mcAuthority',
  'certificateOfInsurance',
  'w9Form',
  'noticeOfAssignment',
] as const;

/** From the route's title: which organizations (shippers or carriers) and which status. */
function listOf(titleKey: string): {
  kind: 'shippers' | 'carriers';
  status: (typeof userListStatuses)[number];
} {
  const kind = titleKey.startsWith('routes.carriers') ? 'carriers' : 'shippers';
  const slug = titleKey.endsWith('Blocked')
    ? 'blocked'
    : titleKey.endsWith('Pending')
      ? 'pending'
      : 'active';
  return { kind, status: userListStatuses.find((entry) => entry.slug === slug)! };
}

/** The organization's details and documents, each opened with the bearer token. */
function OrganizationDialog({ row, onHide }: { row: OrganizationRow; onHide: () => void }) {
  const { t } = useTranslation();
  const documents =
    row.type === 'Carrier'
      ? documentKeys.map((key) => ({
          key,
          label: t(`account.carrier.${key}`),
          id: row.documents?.[key] ?? null,
        }))
      : [
          {
            key: 'signature',
            label: t('account.shipper.signature'),
            id: row.signatureFileId ?? null,
          },
        ];
  const details: [string, string][] = [
    [t('account.organization.person'), row.person],
    [t('account.organization.address'), row.address],
    [t('account.organization.phone'), row.phone],
    [t('account.organization.email'), row.email],
    [t('usersAdmin.firstUser'), row.user ? `${row.user.name} · ${row.user.email}` : '—'],
    ...(row.type === 'Carrier'
      ? ([
          [t('account.carrier.mcNumber'), String(row.mcNumber ?? '—')],
          [t('account.carrier.dotNumber'), String(row.dotNumber ?? '—')],
          [t('account.carrier.eldProvider'), row.eldProvider || '—'],
        ] as [string, string][])
      : ([
          [
            t('account.shipper.insuredAmount'),
            row.insuredAmount ? t(`catalog.insuredAmounts.${row.insuredAmount}` as never) : '—',
          ],
        ] as [string, string][])),
  ];
  return (
    <Dialog
      header={row.name}
      visible
      onHide={onHide}
      className="organization-dialog"
      style={{ width: 'min(40rem, 95vw)' }}
      dismissableMask
    >
      <StatusChip name={row.statusName} />
      <dl className="details-list">
        {details.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {row.type === 'Carrier' && <CarrierAuthorityBadge organizationId={row.id} />}
      <h3 className="documents-title">{t('usersAdmin.documents')}</h3>
      <ul className="documents-list">
        {documents.map((document) => (
          <li key={document.key}>
            <i className={`pi ${document.id ? 'pi-file-pdf' : 'pi-file'}`} aria-hidden="true" />
            <span>{document.label}</span>
            {document.id ? (
              <Button
                type="button"
                label={t('usersAdmin.view')}
                icon="pi pi-external-link"
                size="small"
                text
                onClick={() => void openStoredFile(document.id!)}
              />
            ) : (
              <span className="muted">{t('usersAdmin.notUploaded')}</span>
            )}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}

/** /users/shippers/{status} and /users/carriers/{status}: organizations (their own status) with their first user; activate and block the organization. */
export default function OrganizationsPage({ titleKey }: PageProps) {
  const { t, i18n } = useTranslation();
  const messageText = useMessageText();
  const { kind, status } = listOf(titleKey);
  const [refresh, setRefresh] = useState(0);
  const [open, setOpen] = useState<OrganizationRow | null>(null);

  // The organization's own status (docs/api.md "Organizations and access"): blocking it signs every member out.
  const change = async (row: OrganizationRow, action: 'activate' | 'block') => {
    try {
      await apiPut<OrganizationStatus>(`/organizations/${row.id}/status`, {
        status: action === 'activate' ? 'Active' : 'Blocked',
      });
      notify(
        'success',
        t(
          action === 'activate'
            ? 'publicMessages.organizationActivated'
            : 'publicMessages.organizationBlocked',
        ),
      );
      setRefresh((value) => value + 1);
    } catch (error) {
      notify('error', messageText(messageOf(error)));
    }
  };

  const columns: TableColumn<OrganizationRow>[] = [
    {
      field: 'name',
      header: t('usersAdmin.company'),
      sortable: true,
      body: (row) => (
        <span className="cell-stack">
          <strong>{row.name}</strong>
          <small>{row.person}</small>
        </span>
      ),
    },
    {
      field: 'user',
      header: t('usersAdmin.firstUser'),
      body: (row) =>
        row.user ? (
          <span className="cell-stack">
            <span>{row.user.name}</span>
            <small>{row.user.email}</small>
          </span>
        ) : (
          '—'
        ),
    },
    { field: 'phone', header: t('account.organization.phone'), numeric: true },
    kind === 'carriers'
      ? {
          field: 'mcNumber',
          header: 'MC / DOT',
          numeric: true,
          body: (row) => `${row.mcNumber ?? '—'} / ${row.dotNumber ?? '—'}`,
        }
      : {
          field: 'insuredAmount',
          header: t('account.shipper.insuredAmount'),
          numeric: true,
          body: (row) =>
            row.insuredAmount ? t(`catalog.insuredAmounts.${row.insuredAmount}` as never) : '—',
        },
    {
      field: 'createdAt',
      header: t('usersAdmin.registered'),
      sortable: true,
      numeric: true,
      body: (row) => formatDate(row.createdAt, i18n.resolvedLanguage ?? 'en'),
    },
    { field: 'status', header: t('usersAdmin.status'), sortable: true },
    {
      // The server lists only activate and block per row: the details and documents are a column of their own.
      field: 'documents',
      header: t('usersAdmin.documents'),
      body: (row) => (
        <Button
          type="button"
          icon="pi pi-folder-open"
          label={t('usersAdmin.details')}
          size="small"
          text
          onClick={(event) => {
            event.stopPropagation();
            setOpen(row);
          }}
        />
      ),
    },
  ];
  const actions: RowAction<OrganizationRow>[] = [
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
  ];

  return (
    <section className="page users-page">
      <header className="page-header">
        <h1>{t(titleKey)}</h1>
      </header>
      <GenericTable<OrganizationRow>
        key={`${kind}-${status.slug}`}
        title={t(`usersAdmin.${kind}`)}
        url={withStatus(`/users/list/${kind}`, status.id)}
        columns={columns}
        actions={actions}
        onRowClick={setOpen}
        refreshKey={refresh}
        empty={<span className="table-empty">{t(`usersAdmin.empty.${status.slug}`)}</span>}
      />
      {open && <OrganizationDialog row={open} onHide={() => setOpen(null)} />}
    </section>
  );
}
