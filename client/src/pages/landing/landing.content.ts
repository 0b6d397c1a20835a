/**
 * The landing page's content (specification section 3, "Landing content"), read from
 * GET /api/content/{type}; the first item of each answer is used (all of them for the about cards,
 * the feature tabs). A failed read is only logged: the page then shows its built-in texts, in the
 * reader's language. The built-in content the server ships is the same text as our English
 * fallback, so when it arrives unchanged it is shown translated too; content an operator wrote is
 * shown as written.
 */
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContentItems } from '../../../../domain/contracts/content.contract.ts';
import { apiGet } from '../../api/http.ts';
import i18n from '../../i18n/index.ts';

export type {
  AboutCard,
  FeatureTab,
  Footer,
  FormSection,
  Hero,
  PartnersSection,
  VideoSection,
} from '../../../../domain/contracts/content.contract.ts';

/** The landing page's sections (the privacy policy has its own page). */
export type LandingContent = Omit<ContentItems, 'privacyPolicy'>;
export type LandingType = keyof LandingContent;
const landingTypes: readonly LandingType[] = [
  'hero',
  'aboutCards',
  'videoSection',
  'featuresSection',
  'formSection',
  'partnersSection',
  'footer',
];

const image = (name: string) => `/content/${name}.svg`;
export const partnerNames = [
  'bluestem-freight',
  'copperline-haulers',
  'harborview-cold-chain',
  'keystone-pallet-works',
  'lakeshore-intermodal',
  'red-mesa-carriers',
];

/** The built-in content in one language. */
export function builtInContent(t: TFunction): LandingContent {
  return {
    hero: [
      {
        title: t('home.hero.title'),
        subtitle: t('home.hero.subtitle'),
        image: image('hero-truck-highway'),
      },
    ],
    aboutCards: (['post', 'track', 'history'] as const).map((key, index) => ({
      title: t(`home.about.${key}.title`),
      description: t(`home.about.${key}.description`),
      image: image(['about-post-and-bid', 'about-live-tracking', 'about-audit-trail'][index]!),
    })),
    videoSection: [
      {
        title: t('home.video.title'),
        subtitle: t('home.video.subtitle'),
        embeddedVideoUrl: image('product-tour'),
      },
    ],
    featuresSection: (['board', 'offers', 'tracking', 'history'] as const).map((key, index) => ({
      tabName: t(`home.features.${key}.name`),
      tabDescription: t(`home.features.${key}.description`),
      tabImage: image(
        ['feature-load-board', 'feature-offers', 'feature-tracking', 'feature-history'][index]!,
      ),
    })),
    formSection: [
      {
        title: t('home.form.title'),
        subtitle: t('home.form.subtitle'),
        inputPlaceholder: t('home.form.placeholder'),
        actionButtonText: t('home.form.button'),
      },
    ],
    partnersSection: [
      {
        title: t('home.partners.title'),
        images: partnerNames.map((name) => image(`partner-${name}`)),
      },
    ],
    footer: [
      {
        aboutCompany: t('home.footer.about'),
        actionButtonText: t('home.footer.action'),
        contactTitle: t('home.footer.contactTitle'),
        contactEmail: 'hello@freight.local',
        contactLocation: t('home.footer.location'),
        contactPhone: '(312) 555-0100',
        termsText: t('routes.terms'),
        privacyText: t('routes.privacy'),
        copyright: t('home.footer.copyright'),
      },
    ],
  };
}

/** The text fields of each type: what a translation replaces; urls, e-mail and phone stay as served. */
const textFields: { [T in LandingType]: readonly (keyof LandingContent[T][number])[] } = {
  hero: ['title', 'subtitle'],
  aboutCards: ['title', 'description'],
  videoSection: ['title', 'subtitle'],
  featuresSection: ['tabName', 'tabDescription'],
  formSection: ['title', 'subtitle', 'inputPlaceholder', 'actionButtonText'],
  partnersSection: ['title'],
  footer: [
    'aboutCompany',
    'actionButtonText',
    'contactTitle',
    'contactLocation',
    'termsText',
    'privacyText',
    'copyright',
  ],
};

/** Contentful hands out protocol-relative file urls ('//images…'): they are read over https. */
export const fileUrl = (url: string | undefined | null): string =>
  url?.startsWith('//') ? `https:${url}` : (url ?? '');

/** What one section shows: the served items, translated when they are the unchanged built-in ones. */
export function localize<T extends LandingType>(
  type: T,
  served: LandingContent[T] | undefined,
  own: LandingContent[T],
  english: LandingContent[T],
  language: string,
): LandingContent[T] {
  if (!served || served.length === 0) return own;
  if (language === 'en') return served;
  const fields = textFields[type] as readonly string[];
  const same = (a: object, b: object) =>
    fields.every(
      (field) => (a as Record<string, unknown>)[field] === (b as Record<string, unknown>)[field],
    );
  const unchanged =
    served.length === english.length && served.every((item, index) => same(item, english[index]!));
  if (!unchanged) return served;
  return served.map((item, index) => ({
    ...item,
    ...Object.fromEntries(
      fields.map((field) => [field, (own[index] as unknown as Record<string, unknown>)[field]]),
    ),
  })) as LandingContent[T];
}

/** Every landing section, read once; until (or unless) the server answers, the built-in texts. */
export function useLandingContent(): LandingContent {
  const { t, i18n: instance } = useTranslation();
  const [served, setServed] = useState<Partial<LandingContent>>({});

  useEffect(() => {
    const controller = new AbortController();
    for (const type of landingTypes) {
      apiGet<unknown>(`/content/${type}`, { auth: false, signal: controller.signal })
        .then((items) => {
          if (Array.isArray(items) && items.length > 0)
            setServed((current) => ({ ...current, [type]: items }));
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted)
            console.warn(
              `Landing content "${type}" could not be read; the built-in text is shown`,
              error,
            );
        });
    }
    return () => controller.abort();
  }, []);

  const own = builtInContent(t);
  const english = builtInContent(i18n.getFixedT('en'));
  const language = instance.resolvedLanguage ?? 'en';
  const pick = <T extends LandingType>(type: T) =>
    localize(type, served[type], own[type], english[type], language);
  return {
    hero: pick('hero'),
    aboutCards: pick('aboutCards'),
    videoSection: pick('videoSection'),
    featuresSection: pick('featuresSection'),
    formSection: pick('formSection'),
    partnersSection: pick('partnersSection'),
    footer: pick('footer'),
  };
}
