import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { ConfirmDialog } from 'primereact/confirmdialog';
import { Dialog } from 'primereact/dialog';
import { InputText } from 'primereact/inputtext';
import { Tag } from 'primereact/tag';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { TextField } from '../../shared/forms/fields.tsx';
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  replayWebhook,
  testWebhook,
  type Webhook,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  webhookDeliveries,
} from './webhooks.api.ts';
import './webhooks.css';

/** The locale key of an event type: `load.posted` is `webhooks.types.load_posted`. */
type EventKey =
  | 'load_posted'
  | 'load_updated'
  | 'load_status'
  | 'proposal_created'
  | 'proposal_updated'
  | 'tour_status'
  | 'tour_event'
  | 'tour_position'
  | 'chat_message';

const severity = { delivered: 'success', retrying: 'warning', failed: 'danger' } as const;

function DeliveryStatus({ status }: { status: WebhookDelivery['status'] }) {
  const { t } = useTranslation();
  return <Tag value={t(`webhooks.status.${status}`)} severity={severity[status]} />;
}

/** The secret, shown once after adding an endpoint, with Copy. */
function SecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
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

/** Add an endpoint: URL, the events it hears, a description. */
function AddForm({ onAdded }: { onAdded: (secret: string) => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENT_TYPES]);
  const [errors, setErrors] = useState<{ url?: string; events?: string; description?: string }>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing = {
      ...(url.trim() ? {} : { url: t('webhooks.urlRequired') }),
      ...(events.length ? {} : { events: t('webhooks.eventsRequired') }),
    };
    setErrors(missing);
    if (Object.keys(missing).length) return;
    setBusy(true);
    try {
      const { secret } = await createWebhook({
        url: url.trim(),
        events: events as never,
        description: description.trim() || undefined,
      });
      setUrl('');
      setDescription('');
      onAdded(secret);
    } catch (error) {
      if (error instanceof ApiError && error.errors.length) {
        const byField: Record<string, string> = {};
        for (const fieldError of error.errors)
          byField[(fieldError.path ?? '').split('.')[0]!] ??= fieldError.message;
        setErrors(byField);
      } else notify('error', messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="account-form webhook-card"
      aria-labelledby="webhook-add-title"
    >
      <h3 id="webhook-add-title" className="m-0">
        {t('webhooks.add')}
      </h3>
      <TextField
        id="webhook-url"
        label={t('webhooks.url')}
        value={url}
        onChange={setUrl}
        error={errors.url}
        hint={t('webhooks.urlHint')}
        autoComplete="off"
        required
      />
      <fieldset
        className="webhook-event-choices"
        aria-describedby={errors.events ? 'webhook-events-error' : undefined}
      >
        <legend>{t('webhooks.events')}</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <div key={type} className="webhook-event-choice">
            <Checkbox
              inputId={`webhook-event-${type}`}
              checked={events.includes(type)}
              onChange={(event) =>
                setEvents((current) =>
                  event.checked ? [...current, type] : current.filter((item) => item !== type),
                )
              }
            />
            <label htmlFor={`webhook-event-${type}`}>
              {t(`webhooks.types.${type.replace('.', '_') as EventKey}`)}
            </label>
          </div>
        ))}
      </fieldset>
      {errors.events && (
        <small id="webhook-events-error" className="p-error">
          {errors.events}
        </small>
      )}
      <TextField
        id="webhook-description"
        label={t('webhooks.description')}
        value={description}
        onChange={setDescription}
        error={errors.description}
        autoComplete="off"
      />
      <div className="form-actions">
        <Button
          type="submit"
          icon={busy ? 'pi pi-spin pi-spinner' : 'pi pi-plus'}
          label={t('webhooks.addButton')}
          disabled={busy}
        />
      </div>
    </form>
  );
}

/** One endpoint: its events, last delivery, recent deliveries, test, replay, delete. */
function EndpointCard({
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
