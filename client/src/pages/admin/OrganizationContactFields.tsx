import { useTranslation } from 'react-i18next';
import { TextField } from '../../shared/forms/fields.tsx';
import type { OrganizationValues, SetValue } from './addOrganizationForm.ts';

/** The organization's name and contact block, for either type. */
export function OrganizationContactFields({
  values,
  set,
  shown,
}: {
  values: OrganizationValues;
  set: SetValue;
  shown(field: string): string | undefined;
}) {
  const { t } = useTranslation();
  return (
    <>
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
    </>
  );
}
