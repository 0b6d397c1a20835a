import { Button } from 'primereact/button';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { paths } from '../../app/paths.ts';
import { LanguageSwitcher } from '../../components/LanguageSwitcher.tsx';
import { useLandingContent } from './landing.content.ts';
import { AboutSection, HeroSection } from './HeroSections.tsx';
import { FeaturesSection } from './FeaturesSection.tsx';
import { InterestForm } from './InterestForm.tsx';
import { LandingFooter } from './LandingFooter.tsx';
import { PartnersSection } from './PartnersSection.tsx';
import { scrollToSection, type SectionId } from './LandingSections.tsx';
import { VideoBand } from './VideoBand.tsx';
import './landing.css';

const sections: SectionId[] = ['about', 'features', 'signup', 'testimonials', 'contact'];

/** The sticky bar: the brand, the sections (smooth scroll), the language, and LOGIN to /signin. */
function LandingNav() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [scrolled, setScrolled] = useState(false);

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > 8);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  const go = (id: SectionId) => {
    setOpen(false);
    scrollToSection(id);
  };

  return (
    <header className={`landing-nav${scrolled ? ' is-scrolled' : ''}`}>
      <div className="landing-inner landing-nav-row">
        {/* biome-ignore lint/a11y/useValidAnchor: a link to the top of the page, scrolled smoothly */}
        <a
          href="#landing-top"
          className="landing-brand"
          aria-label={t('app.name')}
          onClick={(event) => {
            event.preventDefault();
            scrollToSection('top');
          }}
        >
          <span className="app-brand-mark" aria-hidden="true">
            <i className="pi pi-truck" />
          </span>
          <span>{t('app.name')}</span>
        </a>
        <nav
          aria-label={t('home.nav.label')}
          className={`landing-links${open ? ' is-open' : ''}`}
          id="landing-links"
        >
          <ul>
            {sections.map((id) => (
              <li key={id}>
                <a
                  href={`#${id}`}
                  onClick={(event) => {
                    event.preventDefault();
                    go(id);
                  }}
                >
                  {t(`home.nav.${id}`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="landing-nav-actions">
          <LanguageSwitcher compact />
          <Link href={paths.signIn} className="p-button p-component p-button-sm landing-login">
            <i className="pi pi-sign-in p-button-icon p-button-icon-left" aria-hidden="true" />
            <span className="p-button-label">{t('landing.login')}</span>
          </Link>
          <Button
            type="button"
            icon={open ? 'pi pi-times' : 'pi pi-bars'}
            text
            rounded
            className="landing-menu-toggle"
            aria-label={t('home.nav.menu')}
            aria-expanded={open}
            aria-controls="landing-links"
            onClick={() => setOpen(!open)}
          />
        </div>
      </div>
    </header>
  );
}

/**
 * The public landing page (/): hero, three about cards, the video with 'Learn more' and 'Try it for
 * free', feature tabs, the sign-up-interest form, partners and the footer with contact and legal links.
 */
export default function LandingPage() {
  const content = useLandingContent();
  const [hero] = content.hero;
  const [video] = content.videoSection;
  const [form] = content.formSection;
  const [partners] = content.partnersSection;
  const [footer] = content.footer;
  // The browser looks for a fragment's target (/#features) before the page has rendered it: go there once it has.
  useEffect(() => {
    const target = window.location.hash.slice(1);
    if ((sections as string[]).includes(target))
      scrollToSection(target as SectionId, { jump: true });
  }, []);
  return (
    <div className="page-landing" id="landing-top">
      <LandingNav />
      {hero && <HeroSection hero={hero} />}
      <AboutSection cards={content.aboutCards} />
      {video && <VideoBand video={video} onLearnMore={() => scrollToSection('features')} />}
      <FeaturesSection tabs={content.featuresSection} />
      {form && <InterestForm form={form} />}
      {partners && <PartnersSection partners={partners} />}
      {footer && <LandingFooter footer={footer} />}
    </div>
  );
}
