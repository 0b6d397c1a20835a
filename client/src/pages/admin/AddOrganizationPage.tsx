import { Message } from 'primereact/message';
import { SelectButton } from 'primereact/selectbutton';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { PageProps } from '../../app/pageProps.ts';
import { FormActions } from '../../shared/forms/fields.tsx';
import { CarrierOrganizationFields } from './CarrierOrganizationFields.tsx';
import { InsuredAmountField } from './InsuredAmountField.tsx';
import { OrganizationContactFields } from './OrganizationContactFields.tsx';
import { type OrganizationType, useAddOrganizationForm } from './addOrganizationForm.ts';
import '../../shared/styles/users.css';

export { REDIRECT_AFTER_CREATE_MS } from './addOrganizationForm.ts';

/** /add-organization: type, contact block, the carrier's or the shipper's fields and, for a carrier, four documents. */
export default function AddOrganizationPage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const [, navigate] = useLocation();
  const form = useAddOrganizationForm();
  const { type, values, set, shown, created } = form;

  return (
    <section className="page users-page">
      <header className="page-header">
        <h1>{t(titleKey)}</h1>
      </header>
      <form className="card admin-form" onSubmit={form.submit} noValidate>
        {created && (
          <Message
            severity="success"
            text={t('messages.organizationCreated')}
            className="form-message"
          />
        )}
        {form.formError && (
          <Message severity="error" text={form.formError} className="form-message" />
        )}
        <div className="form-field">
          <span className="field-label" id="organization-type">
            {t('usersAdmin.organizationType')}
          </span>
          <SelectButton
            value={type}
            onChange={(event) => event.value && form.setType(event.value as OrganizationType)}
            options={[
              { value: 'Carrier', label: t('usersAdmin.roles.Carrier') },
              { value: 'Shipper', label: t('usersAdmin.roles.Shipper') },
            ]}
            allowEmpty={false}
            aria-labelledby="organization-type"
          />
        </div>
        <OrganizationContactFields values={values} set={set} shown={shown} />
        {type === 'Carrier' ? (
          <CarrierOrganizationFields
            values={values}
            set={set}
            shown={shown}
            files={form.files}
            chooseFile={form.chooseFile}
            fleet={form.fleet}
            setFleet={form.setFleet}
            vehicleErrors={form.vehicleErrors}
          />
        ) : (
          <InsuredAmountField
            values={values}
            set={set}
            error={form.errors.insuredAmount ? shown('insuredAmount') : undefined}
          />
        )}
        <FormActions
          onCancel={() => navigate('/users/all')}
          busy={form.busy || created}
          cancelLabel={t('common.cancel')}
          saveLabel={t('usersAdmin.createOrganization')}
        />
      </form>
    </section>
  );
}
