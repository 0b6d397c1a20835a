import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { paths } from '../../app/paths.ts';
import './public.css';

/**
 * The frame of the sign-in, sign-up and recovery screens: the form on a card, and beside it on wide
 * screens a panel that says what the product does (hidden on a phone, where the form comes first).
 */
export function AuthFrame({
  title,
  subtitle,
  icon = 'pi-truck',
  wide = false,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  icon?: string;
  wide?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const points = [
    { icon: 'pi-box', text: t('auth.asidePost') },
    { icon: 'pi-dollar', text: t('auth.asideBid') },
    { icon: 'pi-map', text: t('auth.asideTrack') },
  ];
  return (
    <section className={`page auth-page${wide ? ' is-wide' : ''}`}>
      <div className="auth-frame">
        <aside className="auth-aside">
          <Link href={paths.landing} className="auth-aside-brand">
            <span className="app-brand-mark" aria-hidden="true">
              <i className="pi pi-truck" />
            </span>
            <span>{t('app.name')}</span>
          </Link>
          <h2>{t('auth.asideTitle')}</h2>
          <ul>
            {points.map((point) => (
              <li key={point.icon}>
                <i className={`pi ${point.icon}`} aria-hidden="true" />
                <span>{point.text}</span>
              </li>
            ))}
          </ul>
          <p className="auth-aside-note">{t('auth.asideNote')}</p>
        </aside>
        <div className="auth-main">
          <header className="auth-header">
            <span className="auth-icon" aria-hidden="true">
              <i className={`pi ${icon}`} />
            </span>
            <h1>{title}</h1>
            {subtitle && <p className="auth-subtitle">{subtitle}</p>}
          </header>
          {children}
        </div>
      </div>
    </section>
  );
}
