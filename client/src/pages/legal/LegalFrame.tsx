import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'wouter';
import { paths } from '../../app/paths.ts';
import '../../shared/auth/public.css';

/** A legal page: its own small navigation (home and the legal pages), a readable column of text. */
export function LegalFrame({
  title,
  updated,
  links,
  children,
}: {
  title: string;
  updated?: string;
  links: { href: string; label: string }[];
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const [location] = useLocation();
  return (
    <article className="page legal-page">
      <nav className="legal-nav" aria-label={t('legal.navigation')}>
        <Link href={paths.landing}>
          <i className="pi pi-home" aria-hidden="true" /> {t('legal.home')}
        </Link>
        {links.map((link) => (
          <Link
            key={link.href}
            href={link.href}
            aria-current={location === link.href ? 'page' : undefined}
          >
            {link.label}
          </Link>
        ))}
      </nav>
      <header className="legal-header">
        <h1>{title}</h1>
        {updated && <p className="legal-updated">{updated}</p>}
      </header>
      <div className="legal-body">{children}</div>
    </article>
  );
}
