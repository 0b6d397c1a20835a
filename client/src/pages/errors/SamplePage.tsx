import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { samplePage1TitleKey } from '../../shared/shellTexts.ts';
import type { PageProps } from '../../app/pageProps.ts';

/** /sample/page-1 and /sample/page-2: the template's sample pages, kept as plain placeholders. */
export default function SamplePage({ titleKey }: PageProps) {
  const { t } = useTranslation();
  const other = titleKey === samplePage1TitleKey ? '/sample/page-2' : '/sample/page-1';
  return (
    <section className="page">
      <header className="page-header">
        <h1>{t(titleKey)}</h1>
      </header>
      <div className="card">
        <p>{t('sample.text')}</p>
        <Link href={other}>{t('sample.other')}</Link>
      </div>
    </section>
  );
}
