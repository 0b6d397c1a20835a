import { useTranslation } from 'react-i18next';
import { paths } from '../../app/paths.ts';
import { LegalFrame } from './LegalFrame.tsx';

const sections = [
  'service',
  'accounts',
  'loads',
  'offers',
  'tracking',
  'fees',
  'liability',
  'ending',
  'contact',
] as const;

/** /terms: the terms and conditions of the marketplace, in the reader's language. */
export default function TermsPage() {
  const { t } = useTranslation();
  return (
    <LegalFrame
      title={t('routes.terms')}
      updated={t('legal.termsUpdated')}
      links={[
        { href: paths.terms, label: t('routes.terms') },
        { href: paths.privacy, label: t('routes.privacy') },
      ]}
    >
      <p className="legal-intro">{t('legal.termsIntro')}</p>
      {sections.map((section, index) => (
        <section key={section} aria-labelledby={`terms-${section}`}>
          <h2 id={`terms-${section}`}>
            {index + 1}. {t(`legal.terms.${section}.title`)}
          </h2>
          <p>{t(`legal.terms.${section}.text`)}</p>
        </section>
      ))}
    </LegalFrame>
  );
}
