import { RadioButton } from 'primereact/radiobutton';
import { SelectButton } from 'primereact/selectbutton';
import { Message } from 'primereact/message';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import {
  driverTeams,
  insuredAmounts,
  trailerTypes,
  truckTypes,
} from '../../../../domain/catalog.ts';
import {
  carrierDocumentFields,
  checkDocument,
  createOrganizationDataSchema,
  FILE_REQUIRED_MESSAGE,
  registrationDocumentFields,
  type CarrierDocumentField,
} from '../../../../domain/schemas/index.ts';
import { ApiError, apiPost, messageOf, multipartBody } from '../../api/http.ts';
import type { Changed } from '../../../../domain/contracts/users.contract.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { FileDropZone } from '../../components/FileDropZone.tsx';
import { notify } from '../../state/common.ts';
import { FormActions, TextField } from '../../shared/forms/fields.tsx';
import { fieldErrorsOf } from '../../shared/forms/useFormState.ts';
import { VehicleList } from '../../shared/forms/VehicleList.tsx';
import { useMessageText } from '../../components/messages.ts';
import '../../shared/styles/users.css';

/** After 'Organization successfully created' the page goes to /users/all this much later (specification section 9). */
export const REDIRECT_AFTER_CREATE_MS = 2_000;

type Line = { type: number; count: number };
const contactFields: Record<string, string> = {
  name: 'name',
  'organizationContactInfo.address': 'address',
  'organizationContactInfo.person': 'person',
  'organizationContactInfo.email': 'email',
  'organizationContactInfo.phone': 'phone',
};

/** /add-organization: type, contact block, the carrier's or the shipper's fields and, for a carrier, four documents. */
export default function AddOrganizationPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const messageText = useMessageText();
  const [type, setType] = useState<'Carrier' | 'Shipper'>('Carrier');
  const [values, setValues] = useState({
    name: '',
    person: '',
    address: '',
    phone: '',
    email: '',
    eldProvider: '',
    mcNumber: '',
    dotNumber: '',
    insuredAmount: 0,
  });
  const [fleet, setFleet] = useState<{ trucks: Line[]; driverTeams: Line[]; trailers: Line[] }>({
    trucks: [],
    driverTeams: [],
    trailers: [],
  });
  const [files, setFiles] = useState<Partial<Record<CarrierDocumentField, File | null>>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const set = (field: keyof typeof values, value: string | number) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      const { [field]: _dropped, ...rest } = current;
      return rest;
    });
  };

  const chooseFile = (field: CarrierDocumentField, file: File | null) => {
    setFiles((current) => ({ ...current, [field]: file }));
    const problem = file ? checkDocument({ size: file.size, detectedMime: file.type }) : null;
    setErrors((current) => {
      const { [field]: _dropped, ...rest } = current;
      return problem ? { ...rest, [field]: problem } : rest;
    });
  };

  const data = () => {
    const base = {
      type,
      name: values.name,
      organizationContactInfo: {
        address: values.address,
        person: values.person,
        email: values.email,
        phone: values.phone,
      },
    };
    return type === 'Carrier'
      ? {
          ...base,
          eldProvider: values.eldProvider,
          mcNumber: values.mcNumber,
          dotNumber: values.dotNumber,
          ...fleet,
        }
      : { ...base, insuredAmount: values.insuredAmount };
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const parsed = createOrganizationDataSchema.safeParse(data());
    const found: Record<string, string> = {};
    if (!parsed.success)
      for (const [path, message] of Object.entries(fieldErrorsOf(parsed.error.issues)))
        found[contactFields[path] ?? path] = message;
    if (type === 'Carrier') {
      for (const field of carrierDocumentFields) {
        const file = files[field];
        const required = (registrationDocumentFields as readonly string[]).includes(field);
        const problem = file
          ? checkDocument({ size: file.size, detectedMime: file.type })
          : required
            ? FILE_REQUIRED_MESSAGE
            : null;
        if (problem) found[field] = problem;
      }
    }
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      const answer = await apiPost<Changed>(
        '/users/organization',
        multipartBody(parsed.data, type === 'Carrier' ? files : {}),
      );
      notify('success', messageText(answer?.message ?? 'Organization successfully created'));
      setCreated(true);
      timer.current = setTimeout(() => navigate('/users/all'), REDIRECT_AFTER_CREATE_MS);
    } catch (error) {
      if (error instanceof ApiError) {
        const server: Record<string, string> = {};
        for (const item of error.errors)
          if (item.path) server[contactFields[item.path] ?? item.path] ??= item.message;
        setErrors(server);
      }
      setFormError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  const shown = (field: string) => (errors[field] ? messageText(errors[field]) : undefined);
  const documentLabels: Record<CarrierDocumentField, string> = {
    mcAuthority: t('account.carrier.mcAuthority'),
    certificateOfInsurance: t('account.carrier.certificateOfInsurance'),
    w9Form: t('account.carrier.w9Form'),
    noticeOfAssignment: t('account.carrier.noticeOfAssignment'),
  };
  const vehicleErrors = Object.fromEntries(
    Object.entries(errors).map(([key, message]) => [key, messageText(message)]),
  );

  return (
    <section className="page users-page">
      <header className="page-header">
        <h1>{t(titleKey)}</h1>
      </header>
      <form className="card admin-form" onSubmit={submit} noValidate>
        {created && (
          <Message
            severity="success"
            text={t('messages.organizationCreated')}
            className="form-message"
          />
        )}
        {formError && (
          <Message severity="error" text={messageText(formError)} className="form-message" />
        )}
        <div className="form-field">
          <span className="field-label" id="organization-type">
            {t('usersAdmin.organizationType')}
          </span>
          <SelectButton
            value={type}
            onChange={(event) => event.value && setType(event.value as 'Carrier' | 'Shipper')}
            options={[
              { value: 'Carrier', label: t('usersAdmin.roles.Carrier') },
              { value: 'Shipper', label: t('usersAdmin.roles.Shipper') },
            ]}
            allowEmpty={false}
            aria-labelledby="organization-type"
          />
        </div>
        <h2 className="admin-form-section">{t('usersAdmin.contact')}</h2>
        <div className="form-grid">
          <TextField
            id="org-name"
            label={t('account.organization.name')}
            value={values.name}
            onChange={(v) => set('name', v)}
            error={shown('name')}
            required
          />
          <TextField
            id="org-person"
            label={t('account.organization.person')}
            value={values.person}
            onChange={(v) => set('person', v)}
            error={shown('person')}
            required
          />
          <TextField
            id="org-address"
            label={t('account.organization.address')}
            value={values.address}
            onChange={(v) => set('address', v)}
            error={shown('address')}
            required
          />
          <TextField
            id="org-phone"
            type="tel"
            label={t('account.organization.phone')}
            value={values.phone}
            onChange={(v) => set('phone', v)}
            error={shown('phone')}
            hint={t('account.phoneHint')}
            required
          />
          <TextField
            id="org-email"
            type="email"
            label={t('account.organization.email')}
            value={values.email}
            onChange={(v) => set('email', v)}
            error={shown('email')}
            required
          />
        </div>
        {type === 'Carrier' ? (
          <>
            <h2 className="admin-form-section">{t('account.carrier.companyDetails')}</h2>
            <div className="form-grid">
              <TextField
                id="org-mc"
                type="number"
                label={t('account.carrier.mcNumber')}
                value={values.mcNumber}
                onChange={(v) => set('mcNumber', v)}
                error={shown('mcNumber')}
                required
              />
              <TextField
                id="org-dot"
                type="number"
                label={t('account.carrier.dotNumber')}
                value={values.dotNumber}
                onChange={(v) => set('dotNumber', v)}
                error={shown('dotNumber')}
                required
              />
              <TextField
                id="org-eld"
                label={t('account.carrier.eldProvider')}
                value={values.eldProvider}
                onChange={(v) => set('eldProvider', v)}
              />
            </div>
            <h2 className="admin-form-section">{t('account.carrier.fileUploads')}</h2>
            <div className="file-grid">
              {carrierDocumentFields.map((field) => (
                <FileDropZone
                  key={field}
                  label={`${documentLabels[field]}${field === 'noticeOfAssignment' ? '' : ' *'}`}
                  accept="application/pdf,.pdf"
                  file={files[field] ?? null}
                  onFile={(file) => chooseFile(field, file)}
                  error={shown(field)}
                  hint={t('files.pdfHint')}
                />
              ))}
            </div>
            <h2 className="admin-form-section">{t('account.carrier.trucks')}</h2>
            <VehicleList
              idPrefix="trucks"
              items={fleet.trucks}
              options={truckTypes.map((entry) => ({
                value: entry.id,
                label: t(`catalog.trucks.${entry.id}` as never) as string,
              }))}
              onChange={(trucks) => setFleet({ ...fleet, trucks })}
              errors={vehicleErrors}
              addLabel={t('account.carrier.addTruck')}
              typeLabel={t('account.carrier.truckType')}
            />
            <h2 className="admin-form-section">{t('account.carrier.driverTeams')}</h2>
            <VehicleList
              idPrefix="driverTeams"
              items={fleet.driverTeams}
              options={driverTeams.map((entry) => ({
                value: entry.id,
                label: t(`catalog.driverTeams.${entry.id}` as never) as string,
              }))}
              onChange={(items) => setFleet({ ...fleet, driverTeams: items })}
              errors={vehicleErrors}
              addLabel={t('account.carrier.addDriverTeam')}
              typeLabel={t('account.carrier.driverTeam')}
            />
            <h2 className="admin-form-section">{t('account.carrier.trailers')}</h2>
            <VehicleList
              idPrefix="trailers"
              items={fleet.trailers}
              options={trailerTypes.map((entry) => ({ value: entry.id, label: entry.name }))}
              onChange={(trailers) => setFleet({ ...fleet, trailers })}
              errors={vehicleErrors}
              addLabel={t('account.carrier.addTrailer')}
              typeLabel={t('account.carrier.trailerType')}
            />
          </>
        ) : (
          <fieldset className="signup-fieldset">
            <legend>{t('account.shipper.insuredAmount')} *</legend>
            <div className="choice-cards">
              {insuredAmounts.map((entry) => (
                <label
                  key={entry.id}
                  className={`choice-card${values.insuredAmount === entry.id ? ' is-selected' : ''}`}
                  htmlFor={`org-insured-${entry.id}`}
                >
                  <RadioButton
                    inputId={`org-insured-${entry.id}`}
                    name="insuredAmount"
                    value={entry.id}
                    checked={values.insuredAmount === entry.id}
                    onChange={() => set('insuredAmount', entry.id)}
                  />
                  <span className="tabular">
                    {t(`catalog.insuredAmounts.${entry.id}` as never)}
                  </span>
                </label>
              ))}
            </div>
            {errors.insuredAmount && <small className="p-error">{shown('insuredAmount')}</small>}
          </fieldset>
        )}
        <FormActions
          onCancel={() => navigate('/users/all')}
          busy={busy || created}
          cancelLabel={t('common.cancel')}
          saveLabel={t('usersAdmin.createOrganization')}
        />
      </form>
    </section>
  );
}
