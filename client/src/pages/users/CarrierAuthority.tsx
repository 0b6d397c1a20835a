import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chipColors, type ChipColor } from '../../../../domain/catalog/colors.ts';
import { apiGet } from '../../api/http.ts';
import { formatDate } from '../../shared/format.ts';

/** `GET /api/organizations/{id}/authority` (docs/api.md "Carrier authority"). */
export type CarrierAuthority = {
  dotNumber: number | null;
  mcNumber: number | null;
  status: 'active' | 'inactive' | 'revoked' | 'unknown';
  insuranceOnFile: boolean;
  checkedAt: string;
  source: 'import' | 'qcmobile';
};

const statusColor: Record<CarrierAuthority['status'], ChipColor> = {
  active: chipColors.green,
  inactive: chipColors.amber,
  revoked: chipColors.red,
  unknown: chipColors.grey,
};

/** The carrier's operating authority in FMCSA's records, as the vetting Superadmin sees it beside the documents. */
export function CarrierAuthorityBadge({ organizationId }: { organizationId: string }) {
  const { t, i18n } = useTranslation();
  const [authority, setAuthority] = useState<CarrierAuthority | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    setAuthority(null);
    setFailed(false);
    apiGet<CarrierAuthority>(`/organizations/${organizationId}/authority`)
      .then((answer) => current && setAuthority(answer))
      .catch(() => current && setFailed(true));
    return () => {
      current = false;
    };
  }, [organizationId]);

  return (
    <section className="carrier-authority" aria-label={t('usersAdmin.authority.title')}>
      <h3 className="documents-title">{t('usersAdmin.authority.title')}</h3>
      {failed && <p className="muted">{t('usersAdmin.authority.failed')}</p>}
      {authority && (
        <p>
          <span
            className={`status-chip status-${statusColor[authority.status].name}`}
            style={{ '--chip-color': statusColor[authority.status].hex } as React.CSSProperties}
            data-status={authority.status}
          >
            <span className="status-dot" aria-hidden="true" />
            {t(`usersAdmin.authority.status.${authority.status}`)}
          </span>{' '}
          <span>
            {t(
              authority.insuranceOnFile
                ? 'usersAdmin.authority.insured'
                : 'usersAdmin.authority.uninsured',
            )}
          </span>
          <br />
          <small className="muted">
            {t('usersAdmin.authority.checked', {
              date: formatDate(authority.checkedAt, i18n.resolvedLanguage ?? 'en'),
              source: t(`usersAdmin.authority.source.${authority.source}`),
            })}
          </small>
        </p>
      )}
    </section>
  );
}
