import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { paths } from '../../app/paths.ts';
import type { Footer } from './landing.content.ts';
import { type SectionId, scrollToSection } from './LandingSections.tsx';

export function LandingFooter({ footer }: { footer: Footer }) {
  const { t } = useTranslation();
  const sections: SectionId[] = ['about', 'features', 'signup', 'testimonials'];
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the page's contentinfo landmark, named by its heading
    <footer id="contact" className="landing-footer" aria-labelledby="contact-title">
      <div className="landing-inner landing-footer-grid">
        <div>
          <p className="landing-brand landing-footer-brand">
            <span className="app-brand-mark" aria-hidden="true">
              <i className="pi pi-truck" />
            </span>
            {t('app.name')}
          </p>
          <p className="landing-footer-about">{footer.aboutCompany}</p>
          <Link href={paths.signIn} className="p-button p-component p-button-sm">
            <span className="p-button-label">{footer.actionButtonText}</span>
          </Link>
        </div>
        <nav aria-label={t('home.footer.explore')}>
          <h2 className="landing-footer-title">{t('home.footer.explore')}</h2>
          <ul className="landing-footer-links">
            {sections.map((section) => (
              <li key={section}>
                <a
                  href={`#${section}`}
                  onClick={(event) => {
                    event.preventDefault();
                    scrollToSection(section);
                  }}
                >
                  {t(`home.nav.${section}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <address>
          <h2 id="contact-title" className="landing-footer-title">
            {footer.contactTitle}
          </h2>
          <ul className="landing-footer-links">
            <li>
              <i className="pi pi-envelope" aria-hidden="true" />{' '}
              <a href={`mailto:${footer.contactEmail}`}>{footer.contactEmail}</a>
            </li>
            <li>
              <i className="pi pi-phone" aria-hidden="true" />{' '}
              <a
                href={`tel:${footer.contactPhone.replace(/[^\d+]/g, '')}`}
                className="tabular"
                dir="ltr"
              >
                {footer.contactPhone}
              </a>
            </li>
            <li>
              <i className="pi pi-map-marker" aria-hidden="true" /> {footer.contactLocation}
            </li>
          </ul>
        </address>
      </div>
      <div className="landing-inner landing-footer-bottom">
        <span>{footer.copyright}</span>
        <nav aria-label={t('footer.legal')} className="landing-footer-legal">
          <Link href={paths.terms}>{footer.termsText}</Link>
          <Link href={paths.privacy}>{footer.privacyText}</Link>
        </nav>
      </div>
    </footer>
  );
}
