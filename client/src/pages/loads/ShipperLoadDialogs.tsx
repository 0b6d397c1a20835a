import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputTextarea } from 'primereact/inputtextarea';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CANCEL_MESSAGE_REQUIRED_MESSAGE } from '../../../../domain/schemas/load.schema.ts';
import { messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { DateTimeField } from './DateTimeField.tsx';
import { pastDateMessage } from './loadForm.model.ts';
import { loadsApi, type ShipperLoadRow } from '../../shared/loads/loads.api.ts';
import { wallTime } from './wallTime.ts';

interface DialogProps {
  row: ShipperLoadRow | null;
  onHide: () => void;
  onDone: () => void;
  messageText: (message: string) => string;
}

/** Cancel a load with a message (PUT loads/{id}/status {status: 7, message}). */
export function CancelLoadDialog({ row, onHide, onDone, messageText }: DialogProps) {
  const { t } = useTranslation();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!row) return;
    if (!message.trim()) {
      setError(messageText(CANCEL_MESSAGE_REQUIRED_MESSAGE));
      return;
    }
    setBusy(true);
    try {
      await loadsApi.cancel(row.id, message.trim());
      notify('success', t('marketplace.messages.loadCanceled'));
      setMessage('');
      onDone();
    } catch (failure) {
      notify('error', messageText(messageOf(failure)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      header={row ? t('marketplace.loads.cancelTitle', { guid: row.guid }) : ''}
      visible={row !== null}
      onHide={onHide}
      style={{ width: 'min(32rem, 95vw)' }}
      footer={
        <div className="dialog-actions">
          <Button
            type="button"
            text
            severity="secondary"
            label={t('common.close')}
            onClick={onHide}
          />
          <Button
            type="button"
            severity="danger"
            icon="pi pi-times-circle"
            label={t('marketplace.loads.cancelConfirm')}
            loading={busy}
            onClick={confirm}
          />
        </div>
      }
    >
      <div className="form-field">
        <label htmlFor="cancel-message">{t('marketplace.loads.cancelMessage')} *</label>
        <InputTextarea
          id="cancel-message"
          rows={4}
          value={message}
          onChange={(event) => {
            setMessage(event.target.value);
            setError(null);
          }}
          invalid={Boolean(error)}
        />
        {error && <small className="p-error">{error}</small>}
        <small className="field-hint">{t('marketplace.loads.cancelHint')}</small>
      </div>
    </Dialog>
  );
}

/** Extend the offer expiration (PUT loads {loadId, newExpiration, expirationTimezone}). */
export function ExtendExpirationDialog({ row, onHide, onDone, messageText }: DialogProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [zone, setZone] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const shownZone = zone || row?.expirationTimezone || '';
  const confirm = async () => {
    if (!row) return;
    const past = pastDateMessage(value, shownZone, new Date().toISOString());
    if (!value || past) {
      setError(messageText(past ?? 'Please enter a valid date and time'));
      return;
    }
    setBusy(true);
    try {
      await loadsApi.extendExpiration(row.id, value, shownZone);
      notify('success', t('marketplace.messages.loadUpdated'));
      setValue('');
      setZone('');
      onDone();
    } catch (failure) {
      setError(messageText(messageOf(failure)));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      header={row ? t('marketplace.loads.extendTitle', { guid: row.guid }) : ''}
      visible={row !== null}
      onShow={() => row && setValue(wallTime(row.expiration, row.expirationTimezone))}
      onHide={onHide}
      style={{ width: 'min(34rem, 95vw)' }}
      footer={
        <div className="dialog-actions">
          <Button
            type="button"
            text
            severity="secondary"
            label={t('common.close')}
            onClick={onHide}
          />
          <Button
            type="button"
            icon="pi pi-clock"
            label={t('marketplace.loads.extendConfirm')}
            loading={busy}
            onClick={confirm}
          />
        </div>
      }
    >
      <DateTimeField
        id="new-expiration"
        label={t('marketplace.form.expiration')}
        value={value}
        onChange={(next) => {
          setValue(next);
          const past = pastDateMessage(next, shownZone, new Date().toISOString());
          setError(past ? messageText(past) : null);
        }}
        zone={shownZone}
        onZoneChange={setZone}
        error={error}
      />
    </Dialog>
  );
}
