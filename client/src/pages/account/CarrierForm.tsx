import { Accordion, AccordionTab } from 'primereact/accordion';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { driverTeams, trailerTypes, truckTypes } from '../../../../domain/catalog.ts';
import {
  carrierDocumentFields,
  carrierProfileBodySchema,
  checkDocument,
  type CarrierDocumentField,
} from '../../../../domain/schemas/index.ts';
import { apiPost, messageOf, multipartBody } from '../../api/http.ts';
import { FileDropZone } from '../../components/FileDropZone.tsx';
import { useMessageText } from '../../components/messages.ts';
import { fetchError, fetchStart, fetchSuccess } from '../../state/common.ts';
import { openStoredFile } from '../../shared/storedFile.ts';
import type { AccountAnswer, CarrierProfileChanged, VehicleCount } from './account.api.ts';
import { FormActions, TextField } from '../../shared/forms/fields.tsx';
import { fieldErrorsOf, useFormState } from '../../shared/forms/useFormState.ts';
import { VehicleList } from '../../shared/forms/VehicleList.tsx';

type Carrier = NonNullable<AccountAnswer['carrier']>;

/** Opens a stored document in a new tab (the download needs the bearer token, so not a plain link). */
/** The Carrier tab: company details, the four documents, trucks, driver teams and trailers. */
export function CarrierForm({
  carrier,
  onSaved,
  onCancel,
}: {
  carrier: Carrier;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const form = useFormState({
    mcNumber: carrier.mcNumber == null ? '' : String(carrier.mcNumber),
    dotNumber: carrier.dotNumber == null ? '' : String(carrier.dotNumber),
    eldProvider: carrier.eldProvider ?? '',
    trucks: carrier.trucks ?? ([] as VehicleCount[]),
    driverTeams: carrier.driverTeams ?? ([] as VehicleCount[]),
    trailers: carrier.trailers ?? ([] as VehicleCount[]),
  });
  const [files, setFiles] = useState<Partial<Record<CarrierDocumentField, File | null>>>({});
  const [fileErrors, setFileErrors] = useState<Partial<Record<CarrierDocumentField, string>>>({});
  const [busy, setBusy] = useState(false);
  const [active, setActive] = useState<number | number[]>([0]);
  const { values, set, errors } = form;

  const truckOptions = truckTypes.map((entry) => ({
    value: entry.id,
    label: t(`catalog.trucks.${entry.id}` as never) as string,
  }));
  const teamOptions = driverTeams.map((entry) => ({
    value: entry.id,
    label: t(`catalog.driverTeams.${entry.id}` as never) as string,
  }));
  const trailerOptions = trailerTypes.map((entry) => ({ value: entry.id, label: entry.name }));

  const chooseFile = (field: CarrierDocumentField, file: File | null) => {
    setFiles((current) => ({ ...current, [field]: file }));
    const problem = file ? checkDocument({ size: file.size, detectedMime: file.type }) : null;
    setFileErrors((current) => ({
      ...current,
      [field]: problem ? messageText(problem) : undefined,
    }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = form.validate(carrierProfileBodySchema);
    const problems = Object.fromEntries(
      carrierDocumentFields.flatMap((field) => {
        const file = files[field];
        const problem = file ? checkDocument({ size: file.size, detectedMime: file.type }) : null;
        return problem ? [[field, messageText(problem)]] : [];
      }),
    );
    setFileErrors(problems);
    if (!parsed) {
      // Open the sections holding a message so it is seen.
      const sections = new Set<number>([...(Array.isArray(active) ? active : [active])]);
      for (const key of Object.keys(
        fieldErrorsOf(carrierProfileBodySchema.safeParse(values).error?.issues ?? []),
      ))
        sections.add(
          key.startsWith('trucks')
            ? 2
            : key.startsWith('driverTeams')
              ? 3
              : key.startsWith('trailers')
                ? 4
                : 0,
        );
      setActive([...sections, 0]);
      return;
    }
    if (Object.keys(problems).length > 0) {
      setActive([1]);
      return;
    }
    setBusy(true);
    fetchStart();
    try {
      const answer = await apiPost<CarrierProfileChanged>(
        '/users/carrier',
        multipartBody(parsed, files),
      );
      fetchSuccess(answer?.message ?? 'Carrier profile successfully updated');
      setFiles({});
      onSaved();
    } catch (error) {
      form.showServerErrors(error);
      fetchError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  const documentLabels: Record<CarrierDocumentField, string> = {
    mcAuthority: t('account.carrier.mcAuthority'),
    certificateOfInsurance: t('account.carrier.certificateOfInsurance'),
    w9Form: t('account.carrier.w9Form'),
    noticeOfAssignment: t('account.carrier.noticeOfAssignment'),
  };

  return (
    <form className="account-form" onSubmit={submit} noValidate>
      <Accordion multiple activeIndex={active} onTabChange={(event) => setActive(event.index)}>
        <AccordionTab header={t('account.carrier.companyDetails')}>
          <div className="form-grid">
            <TextField
              id="carrier-mc"
              type="number"
              label={t('account.carrier.mcNumber')}
              value={values.mcNumber}
              onChange={(v) => set('mcNumber', v)}
              error={errors.mcNumber}
              disabled={carrier.mcNumber != null}
              hint={carrier.mcNumber != null ? t('account.carrier.lockedHint') : undefined}
              required
            />
            <TextField
              id="carrier-dot"
              type="number"
              label={t('account.carrier.dotNumber')}
              value={values.dotNumber}
              onChange={(v) => set('dotNumber', v)}
              error={errors.dotNumber}
              disabled={carrier.dotNumber != null}
              hint={carrier.dotNumber != null ? t('account.carrier.lockedHint') : undefined}
              required
            />
            <TextField
              id="carrier-eld"
              label={t('account.carrier.eldProvider')}
              value={values.eldProvider}
              onChange={(v) => set('eldProvider', v)}
              error={errors.eldProvider}
            />
          </div>
        </AccordionTab>
        <AccordionTab header={t('account.carrier.fileUploads')}>
          <div className="file-grid">
            {carrierDocumentFields.map((field) => {
              const stored = carrier.documents?.[field];
              return (
                <div key={field}>
                  <FileDropZone
                    label={documentLabels[field]}
                    accept="application/pdf,.pdf"
                    file={files[field] ?? null}
                    onFile={(file) => chooseFile(field, file)}
                    error={fileErrors[field]}
                    hint={t('files.pdfHint')}
                  />
                  {stored && !files[field] && (
                    <button
                      type="button"
                      className="p-button p-component p-button-link p-button-sm stored-file"
                      onClick={() => void openStoredFile(stored)}
                    >
                      <span
                        className="p-button-icon p-button-icon-left pi pi-file-pdf"
                        aria-hidden="true"
                      />
                      <span className="p-button-label">{t('files.viewStored')}</span>
                    </button>
                  )}
                </div>
              );
            })}
          </div>
        </AccordionTab>
        <AccordionTab header={t('account.carrier.trucks')}>
          <VehicleList
            idPrefix="trucks"
            items={values.trucks}
            options={truckOptions}
            onChange={(items) => set('trucks', items)}
            errors={errors}
            addLabel={t('account.carrier.addTruck')}
            typeLabel={t('account.carrier.truckType')}
          />
        </AccordionTab>
        <AccordionTab header={t('account.carrier.driverTeams')}>
          <VehicleList
            idPrefix="driverTeams"
            items={values.driverTeams}
            options={teamOptions}
            onChange={(items) => set('driverTeams', items)}
            errors={errors}
            addLabel={t('account.carrier.addDriverTeam')}
            typeLabel={t('account.carrier.driverTeam')}
          />
        </AccordionTab>
        <AccordionTab header={t('account.carrier.trailers')}>
          <VehicleList
            idPrefix="trailers"
            items={values.trailers}
            options={trailerOptions}
            onChange={(items) => set('trailers', items)}
            errors={errors}
            addLabel={t('account.carrier.addTrailer')}
            typeLabel={t('account.carrier.trailerType')}
          />
        </AccordionTab>
      </Accordion>
      <FormActions
        onCancel={onCancel}
        busy={busy}
        cancelLabel={t('common.cancel')}
        saveLabel={t('common.saveChanges')}
      />
    </form>
  );
}
