import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Tag } from 'primereact/tag';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import {
  replayWebhook,
  testWebhook,
  type Webhook,
  type WebhookDelivery,
  webhookDeliveries,
} from './webhooks.api.ts';
import { DeliveryStatus } from './WebhookParts.tsx';

/** One endpoint: its events, last delivery, recent deliveries, test, replay, delete. */
export function EndpointCard({
  webhook,
  onDelete,
  onChanged,
}: {
  webhook: Webhook;
  onDelete: () => void;
  onChanged: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [deliveries, setDeliveries] = useState<WebhookDelivery[] | null>(null);
  const [from, setFrom] = useState('');
  const [busy, setBusy] = useState(false);
  const time = (iso: string) => new Date(iso).toLocaleString(i18n.language);

  const loadDeliveries = useCallback(async () => {
    try {
      const answer = await webhookDeliveries(webhook.id);
      setDeliveries(answer.data as WebhookDelivery[]);
      // The card's last delivery as of now, too.
      onChanged();
    } catch (error) {
      notify('error', messageOf(error));
    }
  }, [webhook.id, onChanged]);

  async function run(action: () => Promise<string>) {
    setBusy(true);
    try {
      notify('success', await action());
      onChanged();
      if (deliveries) setTimeout(() => void loadDeliveries(), 1000);
    } catch (error) {
      notify('error', messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="webhook-card" aria-label={webhook.url}>
      <div className="webhook-head">
        <span className="webhook-url">{webhook.url}</span>
        {webhook.lastDelivery ? (
          <DeliveryStatus status={webhook.lastDelivery.status} />
        ) : (
          <Tag value={t('webhooks.noDelivery')} severity="info" />
        )}
      </div>
      {webhook.description && <div>{webhook.description}</div>}
      <div className="webhook-events">
        {webhook.events.map((type) => (
          <Tag key={type} value={type} severity="secondary" />
        ))}
      </div>
      <div className="webhook-actions">
        <Button
          type="button"
          size="small"
          outlined
          icon="pi pi-list"
          label={t('webhooks.showDeliveries')}
          onClick={() => void loadDeliveries()}
        />
        <Button
          type="button"
          size="small"
          outlined
          icon="pi pi-send"
          label={t('webhooks.sendTest')}
          disabled={busy}
          onClick={() =>
            void run(async () => {
              await testWebhook(webhook.id);
              return t('webhooks.testQueued');
            })
          }
        />
        <Button
          type="button"
          size="small"
          outlined
          severity="danger"
          icon="pi pi-trash"
          label={t('webhooks.delete')}
          onClick={onDelete}
        />
      </div>
      <div className="webhook-replay">
        <label htmlFor={`webhook-replay-${webhook.id}`}>
          {t('webhooks.replayFrom')}
          <InputText
            id={`webhook-replay-${webhook.id}`}
            type="datetime-local"
            value={from}
            onChange={(event) => setFrom(event.target.value)}
          />
        </label>
        <Button
          type="button"
          size="small"
          icon="pi pi-replay"
          label={t('webhooks.replay')}
          disabled={busy || !from}
          onClick={() =>
            void run(async () =>
              t('webhooks.replayed', {
                count: (await replayWebhook(webhook.id, new Date(from).toISOString())).queued,
              }),
            )
          }
        />
      </div>
      {deliveries && (
        // Scrolls sideways on a phone: focusable, so the keyboard can scroll it too.
        // biome-ignore lint/a11y/useSemanticElements: a labelled scrolling region inside a card, not a page section
        <div
          className="webhook-deliveries"
          tabIndex={0}
          role="region"
          aria-label={t('webhooks.recentDeliveries')}
        >
          {deliveries.length === 0 ? (
            <p>{t('webhooks.noDeliveries')}</p>
          ) : (
            <table>
              <caption className="visually-hidden">{t('webhooks.recentDeliveries')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('webhooks.columns.type')}</th>
                  <th scope="col">{t('webhooks.columns.status')}</th>
                  <th scope="col">{t('webhooks.columns.attempts')}</th>
                  <th scope="col">{t('webhooks.columns.response')}</th>
                  <th scope="col">{t('webhooks.columns.at')}</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>{delivery.type}</td>
                    <td>
                      <DeliveryStatus status={delivery.status} />
                    </td>
                    <td>{delivery.attempts}</td>
                    <td>{delivery.responseStatus ?? '—'}</td>
                    <td>{time(delivery.at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </section>
  );
}
