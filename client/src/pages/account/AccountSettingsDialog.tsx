import { useAtom, useAtomValue } from 'jotai';
import { Dialog } from 'primereact/dialog';
import { Skeleton } from 'primereact/skeleton';
import { TabPanel, TabView } from 'primereact/tabview';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import {
  ACCOUNT_CHANGE_ORGANIZATION,
  hasAny,
  LOAD_IMPORT,
  LOADS_SHIPPER,
  USER_CREATE,
} from '../../../../domain/permissions.ts';
import { accountOpenAtom, notify } from '../../state/common.ts';
import { authUserAtom } from '../../state/session.ts';
import { type AccountAnswer, fetchAccount } from './account.api.ts';
import { CarrierForm } from './CarrierForm.tsx';
import { CarrierListsTab } from './CarrierListsTab.tsx';
import { DefaultTermsForm } from './DefaultTermsForm.tsx';
import { EdiTab } from './EdiTab.tsx';
import { IntegrationsTab } from './IntegrationsTab.tsx';
import { InvoicingForm } from './InvoicingForm.tsx';
import { OrganizationForm } from './OrganizationForm.tsx';
import { SecurityTab } from './SecurityTab.tsx';
import { ShipperForm } from './ShipperForm.tsx';
import { UserForm } from './UserForm.tsx';
import { WebhooksTab } from './WebhooksTab.tsx';

/** Dialog width: 850 px with the Integrations, Webhooks or EDI tab, else 576 px (specification section 9). */
export const accountDialogWidth = (account: AccountAnswer | null, webhooks = false): number =>
  account?.services || webhooks ? 850 : 576;

/**
 * Account Settings: tabs User, Organisation, Shipper or Carrier (one position), Default terms (a
 * shipper's, for whoever may change the organization), Carriers (a shipper's preferred and blocked
 * carriers), Integrations; each only
 * when the account answer holds that section. Fetched on open, cleared on close, refetched after a save.
 */
export default function AccountSettingsDialog() {
  const { t } = useTranslation();
  const [open, setOpen] = useAtom(accountOpenAtom);
  const user = useAtomValue(authUserAtom);
  const [account, setAccount] = useState<AccountAnswer | null>(null);
  const [activeIndex, setActiveIndex] = useState(0);
  const [version, setVersion] = useState(0);

  const refetch = useCallback(() => setVersion((v) => v + 1), []);
  const close = useCallback(() => {
    setOpen(false);
    setAccount(null);
  }, [setOpen]);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    fetchAccount(controller.signal)
      .then(setAccount)
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        notify('error', messageOf(error));
        close();
      });
    return () => controller.abort();
  }, [open, version, close]);

  const tabs: { key: string; header: string; icon: string; body: React.ReactNode }[] = [];
  if (account?.user)
    tabs.push({
      key: `user-${version}`,
      header: t('account.tabs.user'),
      icon: 'pi pi-user',
      body: <UserForm user={account.user} onSaved={refetch} onCancel={close} />,
    });
  if (account?.organization)
    tabs.push({
      key: `org-${version}`,
      header: t('account.tabs.organization'),
      icon: 'pi pi-building',
      body: (
        <OrganizationForm organization={account.organization} onSaved={refetch} onCancel={close} />
      ),
    });
  if (account?.shipper)
    tabs.push({
      key: `shipper-${version}`,
      header: t('account.tabs.shipper'),
      icon: 'pi pi-box',
      body: <ShipperForm shipper={account.shipper} onSaved={refetch} onCancel={close} />,
    });
  else if (account?.carrier)
    tabs.push({
      key: `carrier-${version}`,
      header: t('account.tabs.carrier'),
      icon: 'pi pi-truck',
      body: <CarrierForm carrier={account.carrier} onSaved={refetch} onCancel={close} />,
    });
  // A shipper's default accessorial terms, for whoever may change the organization.
  if (
    account?.organization?.type === 'Shipper' &&
    hasAny(user?.permissions, ACCOUNT_CHANGE_ORGANIZATION)
  )
    tabs.push({
      key: `terms-${version}`,
      header: t('accessorials.defaults.tab'),
      icon: 'pi pi-file-edit',
      body: (
        <DefaultTermsForm organization={account.organization} onSaved={refetch} onCancel={close} />
      ),
    });
  // Invoicing: a shipper's payment terms, a carrier's factor, for whoever may change the organization.
  if (account?.organization && hasAny(user?.permissions, ACCOUNT_CHANGE_ORGANIZATION))
    tabs.push({
      key: `invoicing-${version}`,
      header: t('invoices.settings.tab'),
      icon: 'pi pi-receipt',
      body: (
        <InvoicingForm
          organization={account.organization}
          noticeFileId={account.carrier?.documents.noticeOfAssignment ?? null}
          onSaved={refetch}
        />
      ),
    });
  // A shipper's preferred and blocked carriers, for its shipper users.
  if (account?.organization?.type === 'Shipper' && hasAny(user?.permissions, LOADS_SHIPPER))
    tabs.push({
      key: 'carriers',
      header: t('carrierLists.tab'),
      icon: 'pi pi-star',
      body: <CarrierListsTab onCancel={close} />,
    });
  if (account?.services)
    tabs.push({
      key: 'services',
      header: t('account.tabs.integrations'),
      icon: 'pi pi-link',
      body: <IntegrationsTab fallback={account.services} onChanged={refetch} />,
    });
  // The organization's managers (shippers and carriers who manage users) keep its webhooks.
  if (account?.organization && hasAny(user?.permissions, USER_CREATE))
    tabs.push({
      key: 'webhooks',
      header: t('webhooks.tab'),
      icon: 'pi pi-share-alt',
      body: <WebhooksTab />,
    });
  // A shipper's EDI trading partners and documents, for its users who import loads (its managers).
  if (account?.organization?.type === 'Shipper' && hasAny(user?.permissions, LOAD_IMPORT))
    tabs.push({
      key: 'edi',
      header: t('edi.tab'),
      icon: 'pi pi-arrow-right-arrow-left',
      body: <EdiTab />,
    });
  // Last, so the other tabs keep their places.
  if (account?.user)
    tabs.push({
      key: 'security',
      header: t('account.tabs.security'),
      icon: 'pi pi-shield',
      body: <SecurityTab />,
    });

  return (
    <Dialog
      header={t('account.title')}
      visible={open}
      onHide={close}
      modal
      dismissableMask
      className="account-dialog"
      style={{
        width: `${accountDialogWidth(
          account,
          tabs.some((tab) => tab.key === 'webhooks' || tab.key === 'edi'),
        )}px`,
        maxWidth: '96vw',
      }}
      breakpoints={{ '640px': '100vw' }}
    >
      {!account ? (
        <div className="account-skeleton" role="status" aria-label={t('common.loading')}>
          <Skeleton height="2.5rem" className="mb-3" />
          <Skeleton height="3rem" />
          <Skeleton height="3rem" />
          <Skeleton height="3rem" />
        </div>
      ) : (
        <TabView
          activeIndex={Math.min(activeIndex, Math.max(0, tabs.length - 1))}
          onTabChange={(event) => setActiveIndex(event.index)}
          scrollable
        >
          {tabs.map((tab) => (
            <TabPanel key={tab.key} header={tab.header} leftIcon={`${tab.icon} tab-icon`}>
              {tab.body}
            </TabPanel>
          ))}
        </TabView>
      )}
    </Dialog>
  );
}
