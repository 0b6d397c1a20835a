import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { TextField } from '../../shared/forms/fields.tsx';
import { createWebhook, WEBHOOK_EVENT_TYPES } from './webhooks.api.ts';

type EventKey =
  | 'load_posted'
  | 'load_updated'
  | 'load_status'
  | 'proposal_created'
  | 'proposal_updated'
  | 'tour_status'
  | 'tour_event'
  | 'tour_position'
  | 'tour_pickup_held'
  | 'tour_pickup_released'
  | 'chat_message'
  | 'carrier_authority_changed';

/** Add an endpoint: URL, the events it hears, a description. */
export function AddForm({ onAdded }: { onAdded: (secret: string) => void }) {
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
