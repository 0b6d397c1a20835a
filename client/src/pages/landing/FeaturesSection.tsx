import { type KeyboardEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeatureTab } from './landing.content.ts';
import { ContentImage } from './HeroSections.tsx';

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
