import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiGet, apiPost, apiPut, messageOf } from '../../api/http.ts';
import { StatusChip } from '../../components/StatusChip.tsx';
import { notify } from '../../state/common.ts';
import type { OrganizationService } from './account.api.ts';
import { TextField } from '../../shared/forms/fields.tsx';

const installedId = (service: OrganizationService) =>
  service.organizationServiceData?.organizationServiceId;

/** The ELD install or update dialog: Client ID and Client Secret; the button reads 'Installing...' while busy. */
function InstallDialog({
  service,
  onClose,
  onDone,
}: {
  service: OrganizationService;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const installed = Boolean(service.status);
  const [clientId, setClientId] = useState(service.organizationServiceData?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [errors, setErrors] = useState<{ clientId?: string; clientSecret?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing = {
      ...(clientId.trim() ? {} : { clientId: t('integrations.clientIdRequired') }),
      ...(clientSecret.trim() ? {} : { clientSecret: t('integrations.clientSecretRequired') }),
    };
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    setBusy(true);
    try {
      if (installed)
        await apiPut('/organization-services', {
          organizationServiceId: installedId(service),
          clientId: clientId.trim(),
          clientSecret: clientSecret.trim(),
        });
      else
        await apiPost('/organization-services', {
          serviceId: service.id,
          clientId: clientId.trim(),
          clientSecret: clientSecret.trim(),
        });
      notify(
        'success',
        t(installed ? 'integrations.updated' : 'integrations.installed', { name: service.name }),
      );
      onDone();
    } catch (error) {
      notify('error', messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      header={t(installed ? 'integrations.updateTitle' : 'integrations.installTitle', {
        name: service.name,
      })}
      visible
      onHide={onClose}
      style={{ width: '28rem', maxWidth: '95vw' }}
      modal
    >
      <form onSubmit={submit} noValidate className="account-form">
        <TextField
          id="eld-client-id"
          label={t('integrations.clientId')}
          value={clientId}
          onChange={setClientId}
          error={errors.clientId}
          autoComplete="off"
          required
        />
        <TextField
          id="eld-client-secret"
          type="password"
          label={t('integrations.clientSecret')}
          value={clientSecret}
          onChange={setClientSecret}
          error={errors.clientSecret}
          autoComplete="off"
          required
        />
        <div className="form-actions">
          <Button
            type="button"
            text
            severity="secondary"
            label={t('common.cancel')}
            onClick={onClose}
            disabled={busy}
          />
          <Button
            type="submit"
            label={
              busy
                ? t('integrations.installing')
                : t(installed ? 'integrations.update' : 'integrations.install')
            }
            disabled={busy}
            icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-link'}
          />
        </div>
      </form>
    </Dialog>
  );
}

/** The Integrations tab: the ELD services, each with Install or Update. */
export function IntegrationsTab({
  fallback,
  onChanged,
}: {
  fallback: OrganizationService[];
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [services, setServices] = useState<OrganizationService[] | null>(null);
  const [unavailable, setUnavailable] = useState(false);
  const [editing, setEditing] = useState<OrganizationService | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    apiGet<OrganizationService[]>('/organization-services', { signal: controller.signal })
      .then((list) => {
        setServices(Array.isArray(list) ? list : []);
        setUnavailable(false);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        // The service catalogue is not served yet (404): say so, with what the account answer holds.
        setServices(fallback);
        setUnavailable(error instanceof ApiError && error.status === 404);
        if (!(error instanceof ApiError && error.status === 404)) notify('error', messageOf(error));
      });
    return () => controller.abort();
  }, [version, fallback]);

  if (services === null)
    return (
      <p className="muted" role="status">
        {t('common.loading')}
      </p>
    );
  return (
    <div className="integrations">
      {unavailable && (
        <p className="notice" role="status">
          <i className="pi pi-info-circle" aria-hidden="true" /> {t('integrations.unavailable')}
        </p>
      )}
      {services.length === 0 ? (
        <div className="empty-state">
          <i className="pi pi-link" aria-hidden="true" />
          <p>{t('integrations.empty')}</p>
        </div>
      ) : (
        <ul className="service-list">
          {services.map((service) => (
            <li key={service.id} className="service-card">
              <div>
                <strong>{service.name}</strong>
                {service.description && <p className="muted">{service.description}</p>}
              </div>
              {service.status ? (
                <StatusChip name={service.status} />
              ) : (
                <span className="muted">{t('integrations.notInstalled')}</span>
              )}
              <Button
                type="button"
                size="small"
                outlined={Boolean(service.status)}
                label={t(service.status ? 'integrations.update' : 'integrations.install')}
                onClick={() => setEditing(service)}
              />
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <InstallDialog
          service={editing}
          onClose={() => setEditing(null)}
          onDone={() => {
            setEditing(null);
            setVersion((v) => v + 1);
            onChanged();
          }}
        />
      )}
    </div>
  );
}
