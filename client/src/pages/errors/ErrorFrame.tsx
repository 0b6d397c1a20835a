import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { homePathOf } from '../../app/homePath.ts';
import { paths } from '../../app/paths.ts';
import { authUserAtom } from '../../state/session.ts';
import '../../shared/auth/public.css';

/** An error or status page: a large mark, the title, what happened and what to do, and the way home. */
export function ErrorFrame({
  mark,
  icon,
  title,
  message,
  hint,
  actions,
}: {
  mark?: string;
  icon: string;
  title: string;
  message: string;
  hint?: string;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const user = useAtomValue(authUserAtom);
  return (
    <section className="page page-error status-page">
      <div className="status-art" aria-hidden="true">
        {mark && <span className="status-mark">{mark}</span>}
        <span className="status-icon">
          <i className={`pi ${icon}`} />
        </span>
      </div>
      <h1>{title}</h1>
      <p className="status-message">{message}</p>
      {hint && <p className="status-hint">{hint}</p>}
      <div className="status-actions">
        <Link href={user ? homePathOf(user) : paths.landing} className="p-button p-component">
          <i className="pi pi-home p-button-icon p-button-icon-left" aria-hidden="true" />
          <span className="p-button-label">{t('notFound.home')}</span>
        </Link>
        {actions}
      </div>
    </section>
  );
}
