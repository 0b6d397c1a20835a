import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { Tag } from 'primereact/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebhookDelivery } from './webhooks.api.ts';

export const severity = { delivered: 'success', retrying: 'warning', failed: 'danger' } as const;

export function DeliveryStatus({ status }: { status: WebhookDelivery['status'] }) {
  const { t } = useTranslation();
  return <Tag value={t(`webhooks.status.${status}`)} severity={severity[status]} />;
}

/** The secret, shown once after adding an endpoint, with Copy. */
export function SecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <Dialog
      header={t('webhooks.secretTitle')}
      visible
      onHide={onClose}
      modal
      style={{ width: '32rem', maxWidth: '95vw' }}
    >
      <p>{t('webhooks.secretOnce')}</p>
      <p className="webhook-secret" data-testid="webhook-secret">
        {secret}
      </p>
      <div className="form-actions">
        <Button
          type="button"
          icon={copied ? 'pi pi-check' : 'pi pi-copy'}
          label={copied ? t('webhooks.copied') : t('webhooks.copy')}
          onClick={() =>
            void navigator.clipboard?.writeText(secret).then(
              () => setCopied(true),
              () => undefined,
            )
          }
        />
        <Button
          type="button"
          text
          severity="secondary"
          label={t('webhooks.done')}
          onClick={onClose}
        />
      </div>
    </Dialog>
  );
}
