import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { InputTextarea } from 'primereact/inputtextarea';
import { useAtomValue } from 'jotai';
import { useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  POD_MAX_PHOTOS,
  POD_NOTE_MAX,
  POD_RECEIVED_BY_MAX,
} from '../../../../domain/contracts/pod.contract.ts';
import { podQueue, type PodQueueEntry } from '../../shared/pod/podQueue.ts';
import { PodView } from '../../shared/pod/PodView.tsx';
import { resizeImage } from '../../shared/pod/resizeImage.ts';
import { SignaturePad } from '../../shared/pod/SignaturePad.tsx';
import { authUserAtom } from '../../state/session.ts';
import '../../shared/pod/pod.css';

const newId = (): string => {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function')
    return crypto.randomUUID();
  // Outside a secure context: a version 4 UUID from getRandomValues.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

const useOnline = () => {
  const [online, setOnline] = useState(() =>
    typeof navigator === 'undefined' ? true : navigator.onLine,
  );
  useEffect(() => {
    const on = () => setOnline(true);
    const off = () => setOnline(false);
    window.addEventListener('online', on);
    window.addEventListener('offline', off);
    return () => {
      window.removeEventListener('online', on);
      window.removeEventListener('offline', off);
    };
  }, []);
  return online;
};

type Photo = { blob: Blob; url: string };

/**
 * The proof of delivery, on the driver's phone at the last stop: photos (taken with the camera,
 * made smaller before they are kept), the receiver's signature, who received the goods and a note.
 * The proof waits in the phone (IndexedDB) until the network is back, then is sent once.
 */
export function PodCard({ tourId }: { tourId: string }) {
  const { t } = useTranslation();
  const id = useId();
  const online = useOnline();
  const [photos, setPhotos] = useState<Photo[]>([]);
  const [signature, setSignature] = useState<Blob | null>(null);
  const [padKey, setPadKey] = useState(0);
  const [receivedBy, setReceivedBy] = useState('');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<{ receivedBy?: string; files?: string }>({});
  const [preparing, setPreparing] = useState(false);
  const [entries, setEntries] = useState<PodQueueEntry[]>([]);

  // The driver page is only shown signed in; '' (no user) is a queue nobody's proofs belong to.
  const userId = useAtomValue(authUserAtom)?.id ?? '';
  useEffect(() => podQueue(userId).subscribe(setEntries), [userId]);
  useEffect(
    () => () => {
      for (const photo of photos) URL.revokeObjectURL(photo.url);
    },
    [photos],
  );

  const mine = entries.filter((entry) => entry.draft.tourId === tourId);
  const latest = mine.at(-1) ?? null;
  const sentCount = mine.filter((entry) => entry.state === 'sent').length;

  const addPhotos = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setPreparing(true);
    try {
      const room = POD_MAX_PHOTOS - photos.length;
      const chosen = [...files].slice(0, Math.max(0, room));
      const resized = await Promise.all(chosen.map((file) => resizeImage(file)));
      setPhotos((current) =>
        [...current, ...resized.map((blob) => ({ blob, url: URL.createObjectURL(blob) }))].slice(
          0,
          POD_MAX_PHOTOS,
        ),
      );
      setErrors((current) => ({
        ...current,
        files: files.length > room ? t('pod.tooManyPhotos', { max: POD_MAX_PHOTOS }) : undefined,
      }));
    } finally {
      setPreparing(false);
    }
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const problems: typeof errors = {};
    if (receivedBy.trim() === '') problems.receivedBy = t('pod.receivedByRequired');
    if (photos.length === 0 && !signature) problems.files = t('pod.fileRequired');
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    const draft = {
      id: newId(),
      userId,
      tourId,
      receivedBy: receivedBy.trim(),
      note: note.trim(),
      photos: photos.map((photo) => photo.blob),
      signature,
      queuedAt: new Date().toISOString(),
    };
    setPhotos([]);
    setSignature(null);
    setPadKey((key) => key + 1);
    setReceivedBy('');
    setNote('');
    await podQueue(userId).add(draft);
  };

  const status = useMemo(() => {
    if (!latest) return null;
    if (latest.state === 'sent')
      return { className: 'is-sent', icon: 'pi pi-check-circle', text: t('pod.sent') };
    if (latest.state === 'refused')
      return {
        className: 'is-refused',
        icon: 'pi pi-times-circle',
        text: t('pod.refused', { reason: latest.error ?? '' }),
      };
    if (!online || latest.state === 'waiting')
      return { className: 'is-waiting', icon: 'pi pi-wifi', text: t('pod.waitingForNetwork') };
    return { className: 'is-sending', icon: 'pi pi-spin pi-spinner', text: t('pod.sending') };
  }, [latest, online, t]);

  return (
    <section className="card driver-card pod-card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('pod.title')}</h2>
      <p className="muted">{t('pod.explain')}</p>
      <form onSubmit={(event) => void submit(event)} noValidate>
        <div className="form-field">
          <span className="field-label" id={`${id}-photos-label`}>
            {t('pod.photos', { max: POD_MAX_PHOTOS })}
          </span>
          <label className="pod-photo-input">
            <i className="pi pi-camera" aria-hidden="true" />
            <span>{preparing ? t('pod.preparing') : t('pod.addPhotos')}</span>
            <input
              type="file"
              accept="image/*"
              capture="environment"
              multiple
              aria-labelledby={`${id}-photos-label`}
              disabled={photos.length >= POD_MAX_PHOTOS}
              onChange={(event) => {
                void addPhotos(event.target.files);
                event.target.value = '';
              }}
            />
          </label>
          {photos.length > 0 && (
            <ul
              className="pod-photo-list"
              aria-label={t('pod.photosAdded', { count: photos.length })}
            >
              {photos.map((photo, index) => (
                <li key={photo.url}>
                  <img src={photo.url} alt={t('pod.photoNumber', { number: index + 1 })} />
                  <Button
                    type="button"
                    icon="pi pi-times"
                    rounded
                    severity="secondary"
                    aria-label={t('pod.removePhoto', { number: index + 1 })}
                    onClick={() =>
                      setPhotos((current) => current.filter((entry) => entry !== photo))
                    }
                  />
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="form-field">
          <label className="field-label" htmlFor={`${id}-signature`}>
            {t('pod.signature')}
          </label>
          <SignaturePad
            key={padKey}
            id={`${id}-signature`}
            onChange={(blob) => {
              setSignature(blob);
              if (blob) setErrors((current) => ({ ...current, files: undefined }));
            }}
          />
          {errors.files && (
            <small className="p-error" role="alert">
              {errors.files}
            </small>
          )}
        </div>
        <div className="form-field">
          <label className="field-label" htmlFor={`${id}-received`}>
            {t('pod.receivedBy')}
          </label>
          <InputText
            id={`${id}-received`}
            value={receivedBy}
            maxLength={POD_RECEIVED_BY_MAX}
            autoComplete="name"
            required
            invalid={Boolean(errors.receivedBy)}
            aria-describedby={errors.receivedBy ? `${id}-received-error` : undefined}
            onChange={(event) => {
              setReceivedBy(event.target.value);
              setErrors((current) => ({ ...current, receivedBy: undefined }));
            }}
          />
          {errors.receivedBy && (
            <small id={`${id}-received-error`} className="p-error" role="alert">
              {errors.receivedBy}
            </small>
          )}
        </div>
        <div className="form-field">
          <label className="field-label" htmlFor={`${id}-note`}>
            {t('pod.note')}
          </label>
          <InputTextarea
            id={`${id}-note`}
            value={note}
            rows={2}
            autoResize
            maxLength={POD_NOTE_MAX}
            onChange={(event) => setNote(event.target.value)}
          />
        </div>
        <Button
          type="submit"
          className="pod-submit"
          label={t('pod.submit')}
          icon="pi pi-send"
          disabled={preparing}
        />
      </form>
      {status && (
        <p className={`pod-status ${status.className}`} role="status" aria-live="polite">
          <i className={status.icon} aria-hidden="true" /> {status.text}
        </p>
      )}
      <div className="pod-beside-confirmation">
        <PodView tourId={tourId} hideWhenEmpty refreshKey={sentCount} heading={t('pod.recorded')} />
      </div>
    </section>
  );
}
