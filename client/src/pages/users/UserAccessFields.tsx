import { Dropdown } from 'primereact/dropdown';
import { useTranslation } from 'react-i18next';
import { Role } from '../../../../domain/catalog.ts';
import type { OrganizationChoice, RoleChoice } from './users.api.ts';

/** "No organization": the organization id is then left out of the request (specification section 3). */
export const NO_ORGANIZATION = '-1';

/** The organization type a role belongs to: a Shipper to a shipper, a Carrier or Driver to a carrier, a Superadmin to none. */
const organizationTypeOf = (roleId: number | null) =>
  roleId === Role.Shipper
    ? 'Shipper'
    : roleId === Role.Carrier || roleId === Role.Driver
      ? 'Carrier'
      : null;

/** A new user's role and organization; the organizations offered are those of the role's type. */
export function UserAccessFields({
  roleId,
  organizationId,
  roles,
  organizations,
  errors,
  shown,
  set,
}: {
  roleId: number | null;
  organizationId: string;
  roles: RoleChoice[];
  organizations: OrganizationChoice[];
  errors: Record<string, string>;
  shown(field: string): string | undefined;
  set(field: 'roleId' | 'organizationId', value: string | number | null): void;
}) {
  const { t } = useTranslation();
  const wantedType = organizationTypeOf(roleId);
  const organizationOptions = [
    { value: NO_ORGANIZATION, label: t('usersAdmin.noOrganization') },
    ...organizations
      .filter((item) => !wantedType || !item.type || item.type === wantedType)
      .map((item) => ({ value: String(item.id), label: item.name })),
  ];
  return (
    <>
      <h2 className="admin-form-section">{t('usersAdmin.access')}</h2>
      <div className="form-grid">
        <div className="form-field">
          <label htmlFor="user-role">
            {t('usersAdmin.role')}
            <span aria-hidden="true"> *</span>
          </label>
          <Dropdown
            inputId="user-role"
            value={roleId}
            options={roles.map((role) => ({
              value: role.id,
              label: t(`usersAdmin.roles.${role.name}` as never, {
                defaultValue: role.name,
              }),
            }))}
            onChange={(event) => {
              set('roleId', event.value as number);
              set('organizationId', NO_ORGANIZATION);
            }}
            placeholder={t('usersAdmin.chooseRole')}
            invalid={Boolean(errors.roleId)}
          />
          {errors.roleId && <small className="p-error">{shown('roleId')}</small>}
        </div>
        <div className="form-field">
          <label htmlFor="user-organization">{t('usersAdmin.organization')}</label>
          <Dropdown
            inputId="user-organization"
            value={organizationId}
            options={organizationOptions}
            onChange={(event) => set('organizationId', String(event.value))}
            filter={organizationOptions.length > 8}
            disabled={roleId === Role.Superadmin}
            invalid={Boolean(errors.organizationId)}
          />
          {errors.organizationId && <small className="p-error">{shown('organizationId')}</small>}
        </div>
      </div>
    </>
  );
}
