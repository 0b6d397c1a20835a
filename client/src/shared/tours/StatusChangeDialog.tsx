import { Button } from 'primereact/button';
import { Dialog } from 'primereact/dialog';
import { InputTextarea } from 'primereact/inputtextarea';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TourStatus } from '../../../../domain/catalog.ts';
import { messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { PodView } from '../pod/PodView.tsx';
import { podApi } from '../pod/pod.api.ts';
import { toursApi } from './tours.api.ts';
import type { StatusStep } from './tourSteps.ts';

export type StatusChange = { kind: 'step'; step: StatusStep } | { kind: 'cancel' };

interface Props {
  tourId: string;
  loadGuid: string;
  change: StatusChange;
  onClose: () => void;
  onDone: (status: number) => void;
}

/** Confirms one status step (an optional message) or the cancellation of a tour (a message required). */
export function StatusChangeDialog({ tourId, loadGuid, change, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const id = useId();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const cancel = change.kind === 'cancel';
  const status = cancel ? TourStatus.Canceled : change.step.to;
  const title = cancel
    ? t('tours.cancel.title', { load: loadGuid })
    : t(`tours.steps.${change.step.key}.confirm`, { load: loadGuid });

  const submit = async () => {
    if (cancel && message.trim() === '') {
      setError(t('tours.cancel.messageRequired'));
      return;
    }
    setSaving(true);
    try {
      // Confirming a delivery the driver proved: the confirmation on the proof, which drafts the
      // carrier's invoice; without a proof, the status step as before.
      const onProof =
        !cancel &&
        change.step.key === 'confirmDelivery' &&
        (await podApi.list(tourId).catch(() => [])).length > 0;
      if (onProof) await toursApi.confirmDelivery(tourId);
      else await toursApi.changeStatus(tourId, status, message.trim());
      notify(
        'success',
        cancel
          ? t('tours.cancel.done', { load: loadGuid })
          : t(`tours.steps.${change.step.key}.done`, { load: loadGuid }),
      );
      onDone(status);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  };

  const footer = (
    <div className="dialog-actions">
      <Button type="button" label={t('common.cancel')} text onClick={onClose} disabled={saving} />
      <Button
        type="button"
        label={cancel ? t('tours.cancel.submit') : t(`tours.steps.${change.step.key}.button`)}
        severity={cancel ? 'danger' : undefined}
        icon={cancel ? 'pi pi-times' : 'pi pi-check'}
        loading={saving}
        onClick={() => void submit()}
      />
    </div>
  );

  return (
    <Dialog
      header={title}
      visible
      onHide={onClose}
      footer={footer}
      className="tour-dialog"
      breakpoints={{ '640px': '95vw' }}
      style={{ width: '32rem' }}
    >
      <p className="muted">
        {cancel ? t('tours.cancel.explain') : t(`tours.steps.${change.step.key}.explain`)}
      </p>
      <div className="form-field">
        <label htmlFor={`${id}-message`} className="field-label">
          {cancel ? t('tours.cancel.message') : t('tours.statusMessage')}
        </label>
        <InputTextarea
          id={`${id}-message`}
          value={message}
          rows={3}
          autoResize
          maxLength={2000}
          invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            setMessage(event.target.value);
            setError(null);
          }}
        />
        {error && (
          <small id={`${id}-error`} className="p-error" role="alert">
            {error}
          </small>
        )}
      </div>
      {/* Confirming the delivery: the driver's proof beside the button. */}
      {!cancel && change.step.to === TourStatus.Delivered && (
        <div className="pod-beside-confirmation">
          <p className="muted">{t('invoices.confirmHint')}</p>
          <PodView tourId={tourId} />
        </div>
      )}
    </Dialog>
  );
}
