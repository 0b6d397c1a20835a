import { Button } from 'primereact/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { paths } from '../../app/paths.ts';
import { type AboutCard, fileUrl, type Hero } from './landing.content.ts';
import { scrollToSection } from './LandingSections.tsx';

/**
 * An image of the content source; if it cannot be loaded, a quiet placeholder with an icon takes its place.
 * `size` is the shape the built-in content is drawn at: it reserves the space before the image arrives
 * (no shift of the page), and CSS sets the size shown. Only the hero loads at once; the rest as they
 * come near the screen.
 */
export function ContentImage({
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
      // biome-ignore lint/a11y/useAriaPropsSupportedByRole: named only when it stands for an image (role img)
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
