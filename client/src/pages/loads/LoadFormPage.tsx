import { Button } from 'primereact/button';
import { Skeleton } from 'primereact/skeleton';
import { Steps } from 'primereact/steps';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import { ApiError, messageOf } from '../../api/http.ts';
import type { PageProps } from '../../app/pageProps.ts';
import { notify } from '../../state/common.ts';
import {
  errorsOfStep,
  type FieldErrors,
  firstStepWithErrors,
  fromLoad,
  initialValues,
  type LoadFormValues,
  pastDateMessage,
  steps,
  toLoadBody,
  validateLoad,
} from './loadForm.model.ts';
import { DetailsStep } from './LoadDetailsStep.tsx';
import { GeneralStep } from './LoadFormSteps.tsx';
import { LocationsStep } from './LoadLocationsStep.tsx';
import { useMessageText } from '../../components/messages.ts';
import { loadsApi, type SavedLocation } from '../../shared/loads/loads.api.ts';
import { fetchDefaultTerms } from '../../shared/terms/terms.api.ts';
import { termsFormOf, validateTerms } from '../../shared/terms/terms.ts';
import '../../shared/styles/marketplace.css';

const TIME_FIELDS = {
  pickupStart: ['pickupTimestampStart', 'pickupTimezone'],
  pickupEnd: ['pickupTimestampEnd', 'pickupTimezone'],
  dropoffStart: ['dropOffTimestampStart', 'dropoffTimezone'],
  dropoffEnd: ['dropOffTimestampEnd', 'dropoffTimezone'],
  expiration: ['expiration', 'expirationTimezone'],
} as const;

/**
 * The load form (`/load`, `/loads/edit`, `/loads/edit/{id}`): three steps, 'General info',
 * 'Locations' and 'Load Details', each checked with the domain's load schema before moving on; the
 * request is sent only when every section-5 rule holds. Back to `/loads/shipper` on success.
 */
export default function LoadFormPage({ titleKey, params }: PageProps) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [, navigate] = useLocation();
  const search = useSearch();
  const loadId = params.id ?? new URLSearchParams(search).get('id') ?? null;
  const [values, setValues] = useState<LoadFormValues>(initialValues);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [step, setStep] = useState(0);
  const [busy, setBusy] = useState(false);
  const [loading, setLoading] = useState(Boolean(loadId));
  const [guid, setGuid] = useState<string | null>(null);
  const [savedLocations, setSavedLocations] = useState<SavedLocation[]>([]);
  const [termsFromDefaults, setTermsFromDefaults] = useState(false);

  useEffect(() => {
    // A new load starts from the organization's default terms, when it has them.
    if (loadId) return;
    void fetchDefaultTerms().then((defaults) => {
      if (!defaults) return;
      setTermsFromDefaults(true);
      setValues((current) => ({ ...current, terms: termsFormOf(defaults, true) }));
    });
  }, [loadId]);

  useEffect(() => {
    // The specification: saved-location failures are only logged.
    loadsApi
      .savedLocations()
      .then(setSavedLocations)
      .catch((error: unknown) => console.warn('saved locations', error));
  }, []);

  useEffect(() => {
    if (!loadId) return;
    setLoading(true);
    loadsApi
      .get(loadId)
      .then((load) => {
        setValues(fromLoad(load));
        setGuid(load.guid);
      })
      // Section 8: loading a single load always says 'Something went wrong!'.
      .catch(() => notify('error', t('messages.somethingWentWrong')))
      .finally(() => setLoading(false));
  }, [loadId, t]);

  const shown = useMemo(
    () =>
      Object.fromEntries(
        Object.entries(errors).map(([path, message]) => [path, messageText(message)]),
      ),
    [errors, messageText],
  );

  const set = <K extends keyof LoadFormValues>(field: K, value: LoadFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      const prefix = field === 'stops' ? 'locations' : field === 'terms' ? 'terms.' : null;
      const next = { ...current };
      for (const key of Object.keys(next))
        if (prefix ? key.startsWith(prefix) : bodyFieldOf(field) === key) delete next[key];
      return next;
    });
  };

  const setTime = (field: keyof typeof TIME_FIELDS, value: string) => {
    const [path, zoneField] = TIME_FIELDS[field];
    setValues((current) => ({ ...current, [field]: value }));
    const zone =
      values[
        zoneField === 'pickupTimezone'
          ? 'pickupTimezone'
          : zoneField === 'dropoffTimezone'
            ? 'dropoffTimezone'
            : 'expirationTimezone'
      ];
    const past = pastDateMessage(value, zone, new Date().toISOString());
    setErrors((current) => {
      const next = { ...current };
      if (past) next[path] = past;
      else delete next[path];
      return next;
    });
  };

  /** The terms' checks, as the texts shown under their fields. */
  const termsErrors = (): FieldErrors =>
    Object.fromEntries(
      Object.entries(validateTerms(values.terms)).map(([path, error]) => [
        path,
        t(`accessorials.errors.${error.key}`, error.values ?? {}) as string,
      ]),
    );

  const next = () => {
    const found = errorsOfStep(validateLoad(values, new Date().toISOString()), step);
    setErrors(found);
    if (Object.keys(found).length === 0)
      setStep((current) => Math.min(steps.length - 1, current + 1));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (step < steps.length - 1) {
      next();
      return;
    }
    const found = { ...validateLoad(values, new Date().toISOString()), ...termsErrors() };
    if (Object.keys(found).length > 0) {
      setErrors(found);
      setStep(firstStepWithErrors(found) ?? step);
      return;
    }
    setBusy(true);
    try {
      if (loadId) await loadsApi.update(toLoadBody(values, loadId));
      else await loadsApi.create(toLoadBody(values));
      notify(
        'success',
        loadId ? t('marketplace.messages.loadUpdated') : t('marketplace.messages.loadCreated'),
      );
      navigate('/loads/shipper');
    } catch (error) {
      // The server's field errors land under their fields; what was typed stays.
      if (error instanceof ApiError && error.errors.some((item) => item.path)) {
        const fromServer: FieldErrors = {};
        for (const item of error.errors) if (item.path) fromServer[item.path] ??= item.message;
        setErrors(fromServer);
        setStep(firstStepWithErrors(fromServer) ?? step);
      }
      notify('error', messageText(messageOf(error)));
    } finally {
      setBusy(false);
    }
  };

  const title = loadId ? t('routes.loadEdit', { id: guid ?? loadId }) : t(titleKey, { id: '' });
  const model = steps.map((name) => ({
    label: t(`marketplace.form.steps.${name}` as never) as string,
  }));

  return (
    <section className="page load-form-page">
      <header className="page-header">
        <h1>{title}</h1>
      </header>
      <form className="card load-form" onSubmit={submit} noValidate aria-busy={busy}>
        <Steps
          model={model}
          activeIndex={step}
          readOnly
          className="load-steps"
          aria-label={t('marketplace.form.progress')}
        />
        <h2 className="load-step-title">{model[step].label}</h2>
        {loading ? (
          <div className="load-form-skeleton" role="status" aria-label={t('common.loading')}>
            <Skeleton height="2.5rem" className="mb-3" />
            <Skeleton height="2.5rem" className="mb-3" />
            <Skeleton height="8rem" />
          </div>
        ) : step === 0 ? (
          <GeneralStep
            values={values}
            set={set}
            setTime={setTime}
            errors={shown}
            creating={!loadId}
          />
        ) : step === 1 ? (
          <LocationsStep values={values} set={set} errors={shown} savedLocations={savedLocations} />
        ) : (
          <DetailsStep
            values={values}
            set={set}
            errors={shown}
            termsHint={
              termsFromDefaults
                ? t('accessorials.terms.defaultsHint')
                : loadId
                  ? null
                  : t('accessorials.terms.usualHint')
            }
          />
        )}
        <div className="form-actions load-form-actions">
          <Button
            type="button"
            outlined
            severity="secondary"
            icon="pi pi-arrow-left"
            className="flip-rtl-icon"
            label={t('common.back')}
            disabled={step === 0 || busy}
            onClick={() => setStep((current) => Math.max(0, current - 1))}
          />
          {step < steps.length - 1 ? (
            <Button
              type="submit"
              icon="pi pi-arrow-right"
              iconPos="right"
              label={t('marketplace.form.next')}
              disabled={loading}
            />
          ) : (
            <Button
              type="submit"
              icon="pi pi-check"
              label={loadId ? t('marketplace.form.update') : t('marketplace.form.post')}
              loading={busy}
              disabled={loading}
            />
          )}
        </div>
      </form>
    </section>
  );
}

/** The body field a form field reports under (its message goes when the field is edited). */
function bodyFieldOf(field: keyof LoadFormValues): string {
  const map: Partial<Record<keyof LoadFormValues, string>> = {
    pickupTimezone: 'pickupTimezone',
    dropoffTimezone: 'dropoffTimezone',
    expirationTimezone: 'expirationTimezone',
    equipment: 'loadEquipment',
    accessories: 'loadAccessories',
    weight: 'weight',
    refNumber: 'refNumber',
    commodity: 'commodity',
    description: 'description',
    preferredOnlyHours: 'audience.preferredOnlyHours',
    loadTypeId: 'loadTypeId',
    pickupEndEnabled: 'pickupTimestampEnd',
    dropoffEndEnabled: 'dropOffTimestampEnd',
  };
  return map[field] ?? String(field);
}
