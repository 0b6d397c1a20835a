import { Button } from 'primereact/button';
import { Carousel } from 'primereact/carousel';
import { InputText } from 'primereact/inputtext';
import { type FormEvent, type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { MessageAnswer } from '../../../../domain/contracts/common.ts';
import { apiPost } from '../../api/http.ts';
import { paths } from '../../app/paths.ts';
import { notify } from '../../state/common.ts';
import { useMessageText } from '../../components/messages.ts';
import {
  type AboutCard,
  type FeatureTab,
  fileUrl,
  type Footer,
  type FormSection,
  type Hero,
  type PartnersSection,
  type VideoSection,
} from './landing.content.ts';

/** The partners carousel turns every 1,800 ms (specification section 9). */
export const CAROUSEL_INTERVAL_MS = 1_800;

export type SectionId = 'about' | 'features' | 'signup' | 'testimonials' | 'contact';

/**
 * Smooth scroll to a section (`jump`: at once, as on arriving by a link); the sticky bar's height is
 * kept free by `scroll-margin-top`.
 */
export function scrollToSection(id: SectionId | 'top', { jump = false } = {}) {
  const target = document.getElementById(id === 'top' ? 'landing-top' : id);
  const reduce =
    jump ||
    (typeof window.matchMedia === 'function' &&
      window.matchMedia('(prefers-reduced-motion: reduce)').matches);
  target?.scrollIntoView?.({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
}

/**
 * An image of the content source; if it cannot be loaded, a quiet placeholder with an icon takes its place.
 * `size` is the shape the built-in content is drawn at: it reserves the space before the image arrives
 * (no shift of the page), and CSS sets the size shown. Only the hero loads at once; the rest as they
 * come near the screen.
 */
function ContentImage({
  src,
  alt,
  icon,
  className,
  size,
  eager = false,
}: {
  src: string;
  alt: string;
  icon: string;
  className?: string;
  size: [number, number];
  eager?: boolean;
}) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) {
    return (
      <span
        className={`content-placeholder ${className ?? ''}`}
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
      >
        <i className={`pi ${icon}`} aria-hidden="true" />
      </span>
    );
  }
  return (
    <img
      src={fileUrl(src)}
      alt={alt}
      className={className}
      width={size[0]}
      height={size[1]}
      decoding="async"
      loading={eager ? 'eager' : 'lazy'}
      {...(eager ? { fetchPriority: 'high' as const } : {})}
      onError={() => setFailed(true)}
    />
  );
}

export function HeroSection({ hero }: { hero: Hero }) {
  const { t } = useTranslation();
  return (
    <section className="landing-hero-band" aria-labelledby="landing-hero-title">
      <div className="landing-inner landing-hero-grid">
        <div className="landing-hero-text">
          <p className="landing-eyebrow">{t('home.eyebrow')}</p>
          <h1 id="landing-hero-title">{hero.title}</h1>
          <p className="landing-lead">{hero.subtitle}</p>
          <div className="landing-cta">
            <Link href={paths.signUpSelect} className="p-button p-component p-button-lg">
              <span className="p-button-label">{t('home.tryFree')}</span>
            </Link>
            <Button
              type="button"
              label={t('home.learnMore')}
              icon="pi pi-arrow-down"
              iconPos="right"
              outlined
              size="large"
              className="landing-ghost"
              onClick={() => scrollToSection('about')}
            />
          </div>
          <ul className="landing-badges">
            <li>
              <i className="pi pi-verified" aria-hidden="true" /> {t('home.badgeVetted')}
            </li>
            <li>
              <i className="pi pi-map-marker" aria-hidden="true" /> {t('home.badgeTracking')}
            </li>
            <li>
              <i className="pi pi-lock" aria-hidden="true" /> {t('home.badgeOpen')}
            </li>
          </ul>
        </div>
        <div className="landing-hero-art">
          <ContentImage
            src={hero.image}
            alt=""
            icon="pi-truck"
            className="landing-hero-image"
            size={[1200, 700]}
            eager
          />
        </div>
      </div>
    </section>
  );
}

export function AboutSection({ cards }: { cards: AboutCard[] }) {
  const { t } = useTranslation();
  const icons = ['pi-dollar', 'pi-map', 'pi-history'];
  return (
    <section id="about" className="landing-section" aria-labelledby="about-title">
      <div className="landing-inner">
        <p className="landing-eyebrow">{t('home.nav.about')}</p>
        <h2 id="about-title" className="landing-section-title">
          {t('home.aboutTitle')}
        </h2>
        <ul className="about-cards">
          {cards.slice(0, 3).map((card, index) => (
            <li key={card.title} className="about-card">
              <ContentImage
                src={card.image}
                alt=""
                icon={icons[index] ?? 'pi-box'}
                className="about-card-image"
                size={[96, 96]}
              />
              <h3>{card.title}</h3>
              <p>{card.description}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

const isImage = (url: string) => /\.(svg|png|jpe?g|gif|webp)(\?.*)?$/i.test(url);
const isVideoFile = (url: string) => /\.(mp4|webm|ogg)(\?.*)?$/i.test(url);

/** The product tour: the configured video, or the built-in animation; a plain timeline if neither loads. */
function TourMedia({ url, title }: { url: string; title: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const src = fileUrl(url);
  if (src && !failed && isImage(src))
    return (
      <img
        src={src}
        alt={title}
        className="video-media"
        width={800}
        height={450}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(true)}
      />
    );
  if (src && !failed && isVideoFile(src))
    return (
      <video
        src={src}
        className="video-media"
        controls
        preload="metadata"
        onError={() => setFailed(true)}
      />
    );
  if (src && !failed && !isImage(src))
    return (
      <iframe
        src={src}
        title={title}
        className="video-media"
        allow="fullscreen; picture-in-picture"
        loading="lazy"
      />
    );
  const steps = [
    { icon: 'pi-box', text: t('home.tour.posted') },
    { icon: 'pi-tags', text: t('home.tour.bids') },
    { icon: 'pi-file-edit', text: t('home.tour.signed') },
    { icon: 'pi-truck', text: t('home.tour.tracked') },
    { icon: 'pi-check-circle', text: t('home.tour.delivered') },
  ];
  return (
    <ol className="video-media tour-timeline" aria-label={title}>
      {steps.map((step) => (
        <li key={step.icon}>
          <span aria-hidden="true">
            <i className={`pi ${step.icon}`} />
          </span>
          {step.text}
        </li>
      ))}
    </ol>
  );
}

export function VideoBand({
  video,
  onLearnMore,
}: {
  video: VideoSection;
  onLearnMore: () => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="landing-video-band" aria-labelledby="video-title">
      <div className="landing-inner landing-video-grid">
        <div>
          <h2 id="video-title" className="landing-section-title">
            {video.title}
          </h2>
          <p className="landing-lead">{video.subtitle}</p>
          <div className="landing-cta">
            <Button
              type="button"
              label={t('home.learnMore')}
              outlined
              className="landing-ghost"
              onClick={onLearnMore}
            />
            <Link href={paths.signUpSelect} className="p-button p-component">
              <span className="p-button-label">{t('home.tryFree')}</span>
            </Link>
          </div>
        </div>
        <div className="video-frame">
          <TourMedia url={video.embeddedVideoUrl} title={video.title} />
        </div>
      </div>
    </section>
  );
}

/** Feature tabs: a tab list with arrow-key movement, and the chosen tab's picture and text. */
export function FeaturesSection({ tabs }: { tabs: FeatureTab[] }) {
  const { t } = useTranslation();
  const id = useId();
  const [active, setActive] = useState(0);
  const icons = ['pi-list', 'pi-tags', 'pi-map-marker', 'pi-comments'];
  const current = tabs[Math.min(active, tabs.length - 1)];
  const onKey = (event: KeyboardEvent) => {
    const step =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? -1
          : 0;
    if (!step) return;
    event.preventDefault();
    const rtl =
      document.documentElement.dir === 'rtl' &&
      (event.key === 'ArrowRight' || event.key === 'ArrowLeft');
    const next = (active + (rtl ? -step : step) + tabs.length) % tabs.length;
    setActive(next);
    document.getElementById(`${id}-tab-${next}`)?.focus();
  };
  if (!current) return null;
  return (
    <section
      id="features"
      className="landing-section landing-section-alt"
      aria-labelledby="features-title"
    >
      <div className="landing-inner">
        <p className="landing-eyebrow">{t('home.nav.features')}</p>
        <h2 id="features-title" className="landing-section-title">
          {t('home.featuresTitle')}
        </h2>
        <div className="feature-tabs">
          <div
            role="tablist"
            aria-labelledby="features-title"
            className="feature-tablist"
            onKeyDown={onKey}
          >
            {tabs.map((tab, index) => (
              <button
                key={tab.tabName}
                type="button"
                role="tab"
                id={`${id}-tab-${index}`}
                aria-selected={index === active}
                aria-controls={`${id}-panel`}
                tabIndex={index === active ? 0 : -1}
                className={`feature-tab${index === active ? ' is-active' : ''}`}
                onClick={() => setActive(index)}
              >
                <i className={`pi ${icons[index] ?? 'pi-star'}`} aria-hidden="true" />
                <span>{tab.tabName}</span>
              </button>
            ))}
          </div>
          <div
            role="tabpanel"
            id={`${id}-panel`}
            aria-labelledby={`${id}-tab-${active}`}
            className="feature-panel"
          >
            <div className="feature-panel-text">
              <h3>{current.tabName}</h3>
              <p>{current.tabDescription}</p>
            </div>
            <ContentImage
              key={current.tabImage}
              src={current.tabImage}
              alt=""
              icon={icons[active] ?? 'pi-star'}
              className="feature-image"
              size={[800, 500]}
            />
          </div>
        </div>
      </div>
    </section>
  );
}

/** The sign-up-interest form: one input, sent only when not empty, with no format check of its own. */
export function InterestForm({ form }: { form: FormSection }) {
  const { t } = useTranslation();
  const messageText = useMessageText();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const value = email.trim();
    if (value === '') return;
    setBusy(true);
    try {
      const answer = await apiPost<MessageAnswer>(
        '/sendInfoToAdmin',
        { email: value },
        { auth: false },
      );
      notify('success', messageText(answer?.message ?? 'Thank you! We will be in touch soon.'));
      setEmail('');
    } catch {
      notify('error', t('home.formError'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      id="signup"
      className="landing-section landing-signup-band"
      aria-labelledby="signup-title"
    >
      <div className="landing-inner landing-signup">
        <div>
          <h2 id="signup-title" className="landing-section-title">
            {form.title}
          </h2>
          <p className="landing-lead">{form.subtitle}</p>
        </div>
        <form className="interest-form" onSubmit={submit} noValidate>
          <label htmlFor="interest-email" className="visually-hidden">
            {form.inputPlaceholder}
          </label>
          <InputText
            id="interest-email"
            inputMode="email"
            autoComplete="email"
            value={email}
            placeholder={form.inputPlaceholder}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Button type="submit" label={form.actionButtonText} icon="pi pi-send" loading={busy} />
        </form>
      </div>
    </section>
  );
}

/** 'partner-red-mesa-carriers.svg' → 'Red Mesa Carriers': the logo's words when it cannot be shown. */
export const partnerName = (url: string): string =>
  (url.split('/').pop() ?? '')
    .replace(/\.[a-z0-9]+(\?.*)?$/i, '')
    .replace(/^partner-/, '')
    .split(/[-_]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join(' ');

function PartnerLogo({ url }: { url: string }) {
  const [failed, setFailed] = useState(false);
  const name = partnerName(url);
  return (
    <div className="partner-logo">
      {failed ? (
        <span className="partner-name">{name}</span>
      ) : (
        <img
          src={fileUrl(url)}
          alt={name}
          width={240}
          height={80}
          loading="lazy"
          decoding="async"
          onError={() => setFailed(true)}
        />
      )}
    </div>
  );
}

export function PartnersSection({ partners }: { partners: PartnersSection }) {
  const { t } = useTranslation();
  const images = partners.images ?? [];
  return (
    <section id="testimonials" className="landing-section" aria-labelledby="partners-title">
      <div className="landing-inner">
        <p className="landing-eyebrow">{t('home.nav.testimonials')}</p>
        <h2 id="partners-title" className="landing-section-title">
          {partners.title}
        </h2>
        <blockquote className="landing-quote">
          <p>{t('home.quote')}</p>
          <footer>{t('home.quoteBy')}</footer>
        </blockquote>
        {images.length > 0 && (
          <Carousel
            value={images}
            itemTemplate={(url: string) => <PartnerLogo url={url} />}
            numVisible={4}
            numScroll={1}
            circular
            autoplayInterval={CAROUSEL_INTERVAL_MS}
            showIndicators={false}
            responsiveOptions={[
              { breakpoint: '900px', numVisible: 3, numScroll: 1 },
              { breakpoint: '560px', numVisible: 2, numScroll: 1 },
            ]}
            className="partners-carousel"
          />
        )}
      </div>
    </section>
  );
}

export function LandingFooter({ footer }: { footer: Footer }) {
  const { t } = useTranslation();
  const sections: SectionId[] = ['about', 'features', 'signup', 'testimonials'];
  return (
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
