import { useTranslation } from 'react-i18next';
import { documentFields, type SignUpFiles } from './signUp.model.ts';
import type { StepProps } from './SignUpSteps.tsx';
import { TermsCheck } from './SignUpFleetSteps.tsx';

/** The carrier's last step: what will be sent, and the terms. */
export function ReviewStep(props: StepProps & { files: SignUpFiles }) {
  const { t } = useTranslation();
  const { values, files } = props;
  const total = (lines: { count: number }[]) => lines.reduce((sum, line) => sum + line.count, 0);
  const rows: [string, string][] = [
    [t('signup.name'), `${values.name} · ${values.email}`],
    [t('account.organization.name'), `${values.companyName} · ${values.companyPhone}`],
    [t('signup.authority'), `MC ${values.mcNumber} · DOT ${values.dotNumber}`],
    [
      t('signup.documents'),
      t('signup.documentsCount', {
        uploaded: documentFields.filter((field) => files[field]).length,
      }),
    ],
    [
      t('signup.fleet'),
      t('signup.fleetSummary', {
        trucks: total(values.trucks),
        teams: total(values.driverTeams),
        trailers: total(values.trailers),
      }),
    ],
  ];
  return (
    <>
      <dl className="signup-review">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <TermsCheck {...props} />
    </>
  );
}
