import { Button } from 'primereact/button';
import { Checkbox } from 'primereact/checkbox';
import { InputNumber } from 'primereact/inputnumber';
import { InputText } from 'primereact/inputtext';
import { useAtomValue } from 'jotai';
import { Password } from 'primereact/password';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, apiPut, messageOf } from '../../api/http.ts';
import { fetchError, fetchStart, fetchSuccess } from '../../state/common.ts';
import { authUserAtom } from '../../state/session.ts';
import type { AccountAnswer, MessageAnswer } from './account.api.ts';

type Organization = NonNullable<AccountAnswer['organization']>;

/**
 * The Invoicing tab: a shipper's payment terms (net days, printed on its rate confirmations and
 * used by its carriers' invoices), a carrier's factor (its next invoices name the factor's remit-to,
 * with the notice of assignment on file in its carrier profile). Saved with `PUT
 * /api/users/organization` (the contact as it stands, and the one field).
 */
export function InvoicingForm({
  organization,
  noticeFileId,
  onSaved,
}: {
  organization: Organization;
  /** A carrier's notice of assignment on file (its carrier profile's document); null: none. */
  noticeFileId?: string | null;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const shipper = organization.type === 'Shipper';
  const [days, setDays] = useState<number | null>(organization.paymentTermsDays ?? 30);
  const [useFactor, setUseFactor] = useState(Boolean(organization.factor));
  const [name, setName] = useState(organization.factor?.name ?? '');
  const [remitTo, setRemitTo] = useState(organization.factor?.remitTo ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const twoFactorOn = useAtomValue(authUserAtom)?.twoFactor?.enabled === true;
  const current = organization.factor ?? null;
  // Where the carrier is paid changes with the member's password (and code), as its contact does.
  const factorChanged =
    !shipper &&
    (useFactor
      ? current === null ||
        current.name !== name.trim() ||
        current.remitTo !== remitTo.trim() ||
        current.noticeFileId !== noticeFileId
      : current !== null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (shipper && days === null) found.paymentTermsDays = t('invoices.form.required');
    if (!shipper && useFactor) {
      if (!name.trim()) found['factor.name'] = t('invoices.form.required');
      if (!remitTo.trim()) found['factor.remitTo'] = t('invoices.form.required');
      if (!noticeFileId) found['factor.noticeFileId'] = t('invoices.settings.noticeMissing');
    }
    if (factorChanged && !password) found.password = t('messages.oldPasswordRequired');
    if (factorChanged && twoFactorOn && !code.trim())
      found.code = t('messages.twoFactorCodeRequired');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    fetchStart();
    try {
      await apiPut<MessageAnswer>('/users/organization', {
        name: organization.name,
        person: organization.person,
        address: organization.address,
        phone: organization.phone,
        email: organization.email,
        ...(shipper
          ? { paymentTermsDays: days }
          : {
              factor: useFactor
                ? { name: name.trim(), remitTo: remitTo.trim(), noticeFileId }
                : null,
              ...(factorChanged ? { password, ...(twoFactorOn ? { code: code.trim() } : {}) } : {}),
            }),
      });
      fetchSuccess(t('invoices.settings.saved'));
      onSaved();
    } catch (error) {
      if (error instanceof ApiError) {
        const fromServer: Record<string, string> = {};
        for (const item of error.errors) if (item.path) fromServer[item.path] ??= item.message;
        setErrors(fromServer);
      }
      fetchError(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  const fieldError = (path: string) =>
    errors[path] ? (
      <small className="p-error" role="alert" id={`invoicing-${path}-error`}>
        {errors[path]}
      </small>
    ) : null;

  return (
    <form className="account-form invoicing-form" onSubmit={submit} noValidate>
      {shipper ? (
        <div className="field">
          <label htmlFor="invoicing-terms">{t('invoices.settings.paymentTerms')}</label>
          <InputNumber
            inputId="invoicing-terms"
            value={days}
            min={0}
            max={120}
            useGrouping={false}
            onValueChange={(event) => setDays(event.value ?? null)}
          />
          <small className="form-hint">{t('invoices.settings.paymentTermsHint')}</small>
          {fieldError('paymentTermsDays')}
        </div>
      ) : (
        <fieldset>
          <legend>{t('invoices.settings.factorTitle')}</legend>
          <p className="form-hint">{t('invoices.settings.factorIntro')}</p>
          <div className="field-checkbox">
            <Checkbox
              inputId="invoicing-factor"
              checked={useFactor}
              onChange={(event) => setUseFactor(Boolean(event.checked))}
            />
            <label htmlFor="invoicing-factor">{t('invoices.settings.useFactor')}</label>
          </div>
          {useFactor && (
            <>
              <div className="field">
                <label htmlFor="invoicing-factor-name">{t('invoices.settings.factorName')}</label>
                <InputText
                  id="invoicing-factor-name"
                  value={name}
                  maxLength={200}
                  onChange={(event) => setName(event.target.value)}
                />
                {fieldError('factor.name')}
              </div>
              <div className="field">
                <label htmlFor="invoicing-factor-remit">
                  {t('invoices.settings.factorRemitTo')}
                </label>
                <InputText
                  id="invoicing-factor-remit"
                  value={remitTo}
                  maxLength={500}
                  onChange={(event) => setRemitTo(event.target.value)}
                />
                {fieldError('factor.remitTo')}
              </div>
              <p>
                {t('invoices.settings.notice')}:{' '}
                {noticeFileId
                  ? t('invoices.settings.noticeOnFile')
                  : t('invoices.settings.noticeMissing')}
              </p>
              {fieldError('factor.noticeFileId')}
            </>
          )}
          {factorChanged && (
            <>
              <div className="field">
                <label htmlFor="invoicing-password">{t('contactHold.password')}</label>
                <Password
                  inputId="invoicing-password"
                  value={password}
                  feedback={false}
                  autoComplete="current-password"
                  onChange={(event) => setPassword(event.target.value)}
                />
                {fieldError('password')}
              </div>
              {twoFactorOn && (
                <div className="field">
                  <label htmlFor="invoicing-code">{t('contactHold.code')}</label>
                  <InputText
                    id="invoicing-code"
                    value={code}
                    autoComplete="one-time-code"
                    onChange={(event) => setCode(event.target.value)}
                  />
                  {fieldError('code')}
                </div>
              )}
            </>
          )}
        </fieldset>
      )}
      <div className="dialog-actions">
        <Button type="submit" label={t('invoices.settings.save')} loading={busy} />
      </div>
    </form>
  );
}
