import { Carousel } from 'primereact/carousel';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fileUrl, type PartnersSection as Partners } from './landing.content.ts';
import { CAROUSEL_INTERVAL_MS } from './LandingSections.tsx';

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

export function PartnersSection({ partners }: { partners: Partners }) {
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
