import { Dropdown } from 'primereact/dropdown';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { insuredAmounts } from '../../../../domain/catalog.ts';
import { checkSignature, shipperProfileBodySchema } from '../../../../domain/schemas/index.ts';
import { apiGetBlob, apiPost, messageOf, multipartBody } from '../../api/http.ts';
import { FileDropZone } from '../../components/FileDropZone.tsx';
import { useMessageText } from '../../components/messages.ts';
import { fetchError, fetchStart, fetchSuccess } from '../../state/common.ts';
import { type AccountAnswer, filePath, type ShipperProfileChanged } from './account.api.ts';
import { FormActions } from '../../shared/forms/fields.tsx';
import { useFormState } from '../../shared/forms/useFormState.ts';

/** An object URL for a Blob, revoked when it changes or the component goes. */
function useObjectUrl(blob: Blob | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(blob);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);
  return url;
}

/** The Shipper tab: insurance amount and a signature image (jpeg or png) with its preview. */
export function ShipperForm({
  shipper,
  onSaved,
  onCancel,
}: {
  shipper: NonNullable<AccountAnswer['shipper']>;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const form = useFormState({ insuredAmount: shipper.insuredAmount as number | null });
  const [signature, setSignature] = useState<File | null>(null);
  const [stored, setStored] = useState<Blob | null>(null);
  const [signatureError, setSignatureError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const preview = useObjectUrl(signature ?? stored);

  useEffect(() => {
    if (!shipper.signatureFileId) return;
    const controller = new AbortController();
    apiGetBlob(filePath(shipper.signatureFileId), { signal: controller.signal })
      .then(setStored)
      .catch(() => setStored(null));
    return () => controller.abort();
  }, [shipper.signatureFileId]);

  const choose = (file: File | null) => {
    setSignature(file);
    const problem = file ? checkSignature({ size: file.size, detectedMime: file.type }) : null;
    setSignatureError(problem ? messageText(problem) : null);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = form.validate(shipperProfileBodySchema);
    const problem = signature
      ? checkSignature({ size: signature.size, detectedMime: signature.type })
      : null;
    setSignatureError(problem ? messageText(problem) : null);
    if (!parsed || problem) return;
    setBusy(true);
    fetchStart();
    try {
      const answer = await apiPost<ShipperProfileChanged>(
        '/users/shipper',
        multipartBody(parsed, { signature }),
      );
      fetchSuccess(answer?.message ?? 'Shipper profile successfully updated');
      onSaved();
    } catch (error) {
      form.showServerErrors(error);
      fetchError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  const options = insuredAmounts.map((entry) => ({
    value: entry.id,
    label: t(`catalog.insuredAmounts.${entry.id}` as never) as string,
  }));
  return (
    <form className="account-form" onSubmit={submit} noValidate>
      <div className="form-field">
        <label htmlFor="shipper-insured">{t('account.shipper.insuredAmount')} *</label>
        <Dropdown
          inputId="shipper-insured"
          value={form.values.insuredAmount}
          options={options}
          onChange={(event) => form.set('insuredAmount', Number(event.value))}
          invalid={Boolean(form.errors.insuredAmount)}
          placeholder={t('account.shipper.choose')}
        />
        {form.errors.insuredAmount && (
          <small className="p-error">{form.errors.insuredAmount}</small>
        )}
      </div>
      <FileDropZone
        label={t('account.shipper.signature')}
        accept="image/jpeg,image/png"
        file={signature}
        onFile={choose}
        error={signatureError}
        hint={t('files.imageHint')}
      />
      <figure className="signature-preview">
        {preview ? (
          <img src={preview} alt={t('account.shipper.signaturePreview')} />
        ) : (
          <figcaption className="muted">{t('account.shipper.noSignature')}</figcaption>
        )}
      </figure>
      <FormActions
        onCancel={onCancel}
        busy={busy}
        cancelLabel={t('common.cancel')}
        saveLabel={t('common.saveChanges')}
      />
    </form>
  );
}
