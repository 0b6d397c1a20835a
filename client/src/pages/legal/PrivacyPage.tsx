import { Button } from 'primereact/button';
import { Skeleton } from 'primereact/skeleton';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../../api/http.ts';
import { paths } from '../../app/paths.ts';
import { LegalFrame } from './LegalFrame.tsx';
import { Markdown } from './Markdown.tsx';

type State = { kind: 'loading' } | { kind: 'ready'; text: string } | { kind: 'failed' };

/** /privacy: the policy text from GET /api/content/privacyPolicy; its navigation offers home and privacy. */
export default function PrivacyPage() {
  const { t, i18n } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'loading' });

  const load = useCallback((signal?: AbortSignal) => {
    setState({ kind: 'loading' });
    apiGet<{ text?: unknown }[]>('/content/privacyPolicy', { auth: false, signal })
      .then((items) => {
        const text =
          Array.isArray(items) && typeof items[0]?.text === 'string' ? items[0].text : '';
        setState(text.trim() ? { kind: 'ready', text } : { kind: 'failed' });
      })
      .catch((error: unknown) => {
        if (signal?.aborted) return;
        console.warn('The privacy policy could not be read', error);
        setState({ kind: 'failed' });
      });
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal);
    return () => controller.abort();
  }, [load]);

  // The policy opens with its own title: the page's h1 says it already.
  const text = state.kind === 'ready' ? state.text.replace(/^#{1,2}\s+[^\n]*\n+/, '') : '';
  return (
    <LegalFrame
      title={t('routes.privacy')}
      links={[{ href: paths.privacy, label: t('routes.privacy') }]}
    >
      {state.kind === 'loading' && (
        <div
          className="legal-skeleton"
          role="status"
          aria-busy="true"
          aria-label={t('common.loading')}
        >
          {[100, 92, 96, 60, 100, 88].map((width, index) => (
            <Skeleton key={index} width={`${width}%`} height="1rem" className="mb-2" />
          ))}
        </div>
      )}
      {state.kind === 'ready' && (
        <>
          {i18n.resolvedLanguage !== 'en' && (
            <p className="legal-language-note">{t('legal.privacyLanguage')}</p>
          )}
          {/* The policy is the operator's English text: laid out left to right inside a right-to-left page. */}
          <div lang="en" dir="ltr">
            <Markdown text={text} headingOffset={0} />
          </div>
        </>
      )}
      {state.kind === 'failed' && (
        <div className="legal-fallback">
          <p>{t('legal.privacyFallback')}</p>
          <ul>
            <li>{t('legal.privacyPoint1')}</li>
            <li>{t('legal.privacyPoint2')}</li>
            <li>{t('legal.privacyPoint3')}</li>
          </ul>
          <p>{t('legal.privacyContact')}</p>
          <Button
            type="button"
            label={t('common.retry')}
            icon="pi pi-refresh"
            outlined
            size="small"
            onClick={() => load()}
          />
        </div>
      )}
    </LegalFrame>
  );
}
