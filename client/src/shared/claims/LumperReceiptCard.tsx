import { Button } from 'primereact/button';
import { InputNumber } from 'primereact/inputnumber';
import { ProgressBar } from 'primereact/progressbar';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { notify } from '../../state/common.ts';
import { resizeImage } from '../pod/resizeImage.ts';
import { claimsApi } from './claims.api.ts';
import '../pod/pod.css';
import './claims.css';

/**
 * The lumper's receipt, on the driver's phone: a photo taken with the camera (made smaller before it
 * is sent, as the proof of delivery's) and the amount paid; sent as the tour's lumper claim for
 * reimbursement (POST tours/{id}/lumper).
 */
export function LumperReceiptCard({ tourId, onSent }: { tourId: string; onSent?: () => void }) {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const id = useId();
  const [photo, setPhoto] = useState<{ blob: Blob; url: string } | null>(null);
  const [amount, setAmount] = useState<number | null>(null);
  const [errors, setErrors] = useState<{ photo?: string; amount?: string }>({});
  const [preparing, setPreparing] = useState(false);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);

  useEffect(
    () => () => {
      if (photo) URL.revokeObjectURL(photo.url);
    },
    [photo],
  );

  const choose = async (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    setPreparing(true);
    try {
      const blob = await resizeImage(file);
      setPhoto({ blob, url: URL.createObjectURL(blob) });
      setErrors((current) => ({ ...current, photo: undefined }));
      setSent(false);
    } finally {
      setPreparing(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problems: typeof errors = {};
    if (!photo) problems.photo = t('accessorials.lumper.photoRequired');
    if (amount === null || !(amount > 0)) problems.amount = t('accessorials.lumper.amountRequired');
    setErrors(problems);
    if (Object.keys(problems).length > 0 || !photo || amount === null) return;
    setSending(true);
    try {
      await claimsApi.lumper(tourId, photo.blob, Math.round(amount * 100) / 100);
      setPhoto(null);
      setAmount(null);
      setSent(true);
      notify('success', t('accessorials.lumper.sent'));
      onSent?.();
    } catch (error) {
      // The photo and the amount stay for another try.
      notify('error', messageOf(error));
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="card driver-card lumper-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('accessorials.lumper.title')}</h2>
      <p className="muted">{t('accessorials.lumper.explain')}</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div className="form-field">
          <span className="field-label" id={`${id}-photo-label`}>
            {t('accessorials.lumper.photo')}
          </span>
          <label className="pod-photo-input">
            <i className="pi pi-camera" aria-hidden="true" />
            <span>
              {preparing ? t('accessorials.lumper.preparing') : t('accessorials.lumper.addPhoto')}
            </span>
            <input
              type="file"
              accept="image/*"
              capture="environment"
              aria-labelledby={`${id}-photo-label`}
              aria-describedby={errors.photo ? `${id}-photo-error` : undefined}
              disabled={sending}
              onChange={(event) => {
                void choose(event.target.files);
                event.target.value = '';
              }}
            />
          </label>
          {photo && (
            <div className="lumper-photo-row">
              <img
                className="lumper-photo"
                src={photo.url}
                alt={t('accessorials.lumper.photoAlt')}
              />
              <Button
                type="button"
                icon="pi pi-times"
                rounded
                severity="secondary"
                aria-label={t('accessorials.lumper.removePhoto')}
                onClick={() => setPhoto(null)}
                disabled={sending}
              />
            </div>
          )}
          {errors.photo && (
            <small id={`${id}-photo-error`} className="p-error" role="alert">
              {errors.photo}
            </small>
          )}
        </div>
        <div className="form-field">
          <label htmlFor={`${id}-amount`}>{t('accessorials.lumper.amount')}</label>
          <InputNumber
            inputId={`${id}-amount`}
            value={amount}
            onChange={(event) => {
              setAmount(event.value ?? null);
              setErrors((current) => ({ ...current, amount: undefined }));
            }}
            onValueChange={(event) => setAmount(event.value ?? null)}
            mode="currency"
            currency="USD"
            locale={lng === 'ar' ? 'en-US' : lng}
            min={0}
            maxFractionDigits={2}
            inputMode="decimal"
            invalid={Boolean(errors.amount)}
            aria-describedby={errors.amount ? `${id}-amount-error` : undefined}
          />
          {errors.amount && (
            <small id={`${id}-amount-error`} className="p-error" role="alert">
              {errors.amount}
            </small>
          )}
        </div>
        {sending && (
          <ProgressBar
            mode="indeterminate"
            style={{ height: '6px' }}
            aria-label={t('accessorials.lumper.sending')}
          />
        )}
        <Button
          type="submit"
          className="lumper-submit"
          icon="pi pi-send"
          label={sending ? t('accessorials.lumper.sending') : t('accessorials.lumper.submit')}
          disabled={preparing || sending}
        />
      </form>
      {sent && (
        <p className="pod-status is-sent" role="status" aria-live="polite">
          <i className="pi pi-check-circle" aria-hidden="true" /> {t('accessorials.lumper.sent')}
        </p>
      )}
    </section>
  );
}
