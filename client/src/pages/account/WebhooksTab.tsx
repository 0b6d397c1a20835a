import { ConfirmDialog } from 'primereact/confirmdialog';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { deleteWebhook, listWebhooks, type Webhook } from './webhooks.api.ts';
import { SecretDialog } from './WebhookParts.tsx';
import { AddForm } from './WebhookAddForm.tsx';
import { EndpointCard } from './WebhookEndpointCard.tsx';
import './webhooks.css';

/** The locale key of an event type: `load.posted` is `webhooks.types.load_posted`. */

/** Account settings, Webhooks: the organization's endpoints (docs/api.md "Webhooks"). */
export function WebhooksTab() {
  const { t } = useTranslation();
  const [webhooks, setWebhooks] = useState<Webhook[] | null>(null);
  const [version, setVersion] = useState(0);
  const [secret, setSecret] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const refresh = useCallback(() => setVersion((value) => value + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    listWebhooks(controller.signal)
      .then(setWebhooks)
      .catch((error: unknown) => {
        if (!controller.signal.aborted) notify('error', messageOf(error));
      });
    return () => controller.abort();
  }, [version]);

  return (
    <div className="webhooks-tab">
      <p className="m-0">{t('webhooks.intro')}</p>
      {webhooks === null ? (
        <p role="status">{t('common.loading')}</p>
      ) : webhooks.length === 0 ? (
        <p>{t('webhooks.empty')}</p>
      ) : (
        webhooks.map((webhook) => (
          <EndpointCard
            key={webhook.id}
            webhook={webhook}
            onDelete={() => setDeleting(webhook)}
            onChanged={refresh}
          />
        ))
      )}
      <AddForm
        onAdded={(value) => {
          setSecret(value);
          refresh();
        }}
      />
      {secret && <SecretDialog secret={secret} onClose={() => setSecret(null)} />}
      <ConfirmDialog
        visible={deleting !== null}
        onHide={() => setDeleting(null)}
        header={t('webhooks.deleteTitle')}
        message={deleting ? t('webhooks.deleteMessage', { url: deleting.url }) : ''}
        icon="pi pi-exclamation-triangle"
        acceptLabel={t('webhooks.delete')}
        rejectLabel={t('common.cancel')}
        accept={() => {
          const target = deleting;
          if (!target) return;
          void deleteWebhook(target.id).then(
            () => {
              notify('success', t('webhooks.deleted'));
              refresh();
            },
            (error: unknown) => notify('error', messageOf(error)),
          );
        }}
      />
    </div>
  );
}
