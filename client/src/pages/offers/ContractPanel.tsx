import { Button } from 'primereact/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { messageOf } from '../../api/http.ts';
import { FileDropZone } from '../../components/FileDropZone.tsx';
import { notify } from '../../state/common.ts';
import { downloadBlob, openBlob } from '../../shared/loads/loads.api.ts';
import { offersApi } from './offers.api.ts';

interface Props {
  loadId: string;
  loadGuid: string;
  proposalId: string;
  /** The stored signed contract, once uploaded. */
  contractFileId: string | null;
  /** The winning carrier signs and uploads; the shipper only opens. */
  canUpload: boolean;
  onUploaded?: () => void;
}

/**
 * The contract: the rate confirmation PDF to download, the signed copy to upload (the winning
 * carrier: multipart status 14 and the file), and the signed copy to open (both sides).
 */
export function ContractPanel({
  loadId,
  loadGuid,
  proposalId: offerId,
  contractFileId,
  canUpload,
  onUploaded,
}: Props) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const download = async () => {
    try {
      downloadBlob(await offersApi.rateConfirmation(offerId), `rate-confirmation-${loadGuid}.pdf`);
    } catch (failure) {
      notify('error', messageOf(failure));
    }
  };
  const open = async () => {
    if (!contractFileId) return;
    try {
      openBlob(await offersApi.file(contractFileId));
    } catch (failure) {
      notify('error', messageOf(failure));
    }
  };
  const upload = async () => {
    if (!file) {
      setError(t('messages.fileRequired'));
      return;
    }
    if (file.type && file.type !== 'application/pdf') {
      setError(t('messages.unsupportedFormat'));
      return;
    }
    if (file.size > 5_242_880) {
      setError(t('messages.fileTooLarge'));
      return;
    }
    setBusy(true);
    try {
      await offersApi.uploadContract(loadId, file);
      notify('success', t('marketplace.contract.uploaded'));
      setFile(null);
      onUploaded?.();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card contract-panel" aria-labelledby="contract-title">
      <h2 id="contract-title">
        <i className="pi pi-file-edit" aria-hidden="true" /> {t('marketplace.contract.title')}
      </h2>
      <ol className="contract-steps">
        <li className="is-done">
          <span>{t('marketplace.contract.rateConfirmation')}</span>
          <Button
            type="button"
            outlined
            size="small"
            icon="pi pi-download"
            label={t('marketplace.contract.download')}
            onClick={download}
          />
        </li>
        <li className={contractFileId ? 'is-done' : undefined}>
          <span>
            {contractFileId
              ? t('marketplace.contract.signedStored')
              : canUpload
                ? t('marketplace.contract.signAndUpload')
                : t('marketplace.contract.waiting')}
          </span>
          {contractFileId && (
            <Button
              type="button"
              size="small"
              icon="pi pi-external-link"
              label={t('marketplace.contract.open')}
              onClick={open}
            />
          )}
        </li>
      </ol>
      {canUpload && !contractFileId && (
        <>
          <FileDropZone
            label={t('marketplace.contract.signedFile')}
            accept="application/pdf,.pdf"
            file={file}
            onFile={(chosen) => {
              setFile(chosen);
              setError(null);
            }}
            error={error}
            hint={t('files.pdfHint')}
          />
          <div className="form-actions">
            <Button
              type="button"
              icon="pi pi-upload"
              label={t('marketplace.contract.upload')}
              loading={busy}
              onClick={upload}
            />
          </div>
        </>
      )}
    </section>
  );
}
