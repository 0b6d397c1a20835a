import { Dialog } from 'primereact/dialog';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { formatLocal } from '../format.ts';
import { podApi, type Pod, type PodFile } from './pod.api.ts';
import './pod.css';

/** A stored photo or signature, fetched with the bearer token; a click shows it large. */
export function PodThumbnail({
  file,
  onOpen,
}: {
  file: PodFile;
  onOpen: (file: PodFile, url: string) => void;
}) {
  const { t } = useTranslation();
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let revoked = false;
    let made: string | null = null;
    podApi.file(file.id).then(
      (blob) => {
        if (revoked) return;
        made = URL.createObjectURL(blob);
        setUrl(made);
      },
      () => setFailed(true),
    );
    return () => {
      revoked = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [file.id]);
  const label =
    file.kind === 'signature' ? t('pod.signature') : t('pod.photoNamed', { name: file.name });
  return (
    <button
      type="button"
      className={`pod-thumb is-${file.kind}`}
      disabled={!url}
      onClick={() => url && onOpen(file, url)}
      aria-label={t('pod.enlarge', { name: label })}
    >
      {url ? (
        <img src={url} alt={label} />
      ) : (
        <span className={failed ? 'pi pi-image' : 'pod-thumb-loading'} aria-hidden="true" />
      )}
    </button>
  );
}

/** The thumbnails of a proof's files and the enlarged one, shared by the tour, the confirmation and the history. */
export function PodFiles({ files }: { files: PodFile[] }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<{ file: PodFile; url: string } | null>(null);
  return (
    <>
      <div className="pod-thumbs">
        {files.map((file) => (
          <PodThumbnail
            key={file.id}
            file={file}
            onOpen={(chosen, url) => setOpen({ file: chosen, url })}
          />
        ))}
      </div>
      {open && (
        <Dialog
          header={
            open.file.kind === 'signature'
              ? t('pod.signature')
              : t('pod.photoNamed', { name: open.file.name })
          }
          visible
          onHide={() => setOpen(null)}
          className="pod-enlarged"
          breakpoints={{ '640px': '96vw' }}
          style={{ width: '56rem' }}
        >
          <img src={open.url} alt={open.file.name} className={`pod-large is-${open.file.kind}`} />
        </Dialog>
      )}
    </>
  );
}

/** One proof: who received the goods, when, the note and the files. */
export function PodEntry({ pod }: { pod: Pod }) {
  const { t, i18n } = useTranslation();
  return (
    <article className="pod-entry">
      <p className="pod-received">
        <i className="pi pi-verified" aria-hidden="true" />{' '}
        {t('pod.receivedByAt', {
          name: pod.receivedBy,
          time: formatLocal(pod.at, i18n.resolvedLanguage ?? 'en'),
        })}
      </p>
      {pod.note && (
        <p className="pod-note">
          <bdi>{pod.note}</bdi>
        </p>
      )}
      <PodFiles files={pod.files} />
    </article>
  );
}

/** The proofs of delivery of a tour, for its shipper, its carrier and the Superadmin. */
export function PodView({
  tourId,
  hideWhenEmpty = false,
  refreshKey,
  heading,
}: {
  tourId: string;
  hideWhenEmpty?: boolean;
  refreshKey?: unknown;
  heading?: string;
}) {
  const { t } = useTranslation();
  const [pods, setPods] = useState<Pod[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    podApi.list(tourId).then(
      (list) => current && setPods(list),
      (error) => current && setFailed(messageOf(error)),
    );
    return () => {
      current = false;
    };
  }, [tourId, refreshKey]);
  if (hideWhenEmpty && (pods === null || pods.length === 0)) return null;
  return (
    <section className="pod-view" aria-labelledby={`pod-${tourId}`}>
      <h3 id={`pod-${tourId}`}>{heading ?? t('pod.title')}</h3>
      {failed ? (
        <p className="p-error">{failed}</p>
      ) : pods === null ? (
        <div className="skeleton-block" />
      ) : pods.length === 0 ? (
        <p className="muted">{t('pod.none')}</p>
      ) : (
        pods.map((pod) => <PodEntry key={pod.id} pod={pod} />)
      )}
    </section>
  );
}
