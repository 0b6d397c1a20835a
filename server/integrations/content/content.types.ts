/**
 * The landing page's content types and the fields of their items, as the specification names them
 * (section 3, "Landing content"). An answer is the list of items of one type: one item for most
 * types; three cards for `aboutCards` and four tabs for `featuresSection`. Image fields hold urls.
 */
export const contentTypes = [
  'hero', 'aboutCards', 'videoSection', 'featuresSection', 'formSection', 'partnersSection', 'footer', 'privacyPolicy',
] as const;
export type ContentType = (typeof contentTypes)[number];

export const isContentType = (value: string): value is ContentType => (contentTypes as readonly string[]).includes(value);

export type Hero = { title: string; subtitle: string; image: string };
/** One card of the "about" row (the page shows three). */
export type AboutCard = { title: string; description: string; image: string };
/** `embeddedVideoUrl` is framed by the page; the built-in one is a local animation, never a video site. */
export type VideoSection = { title: string; subtitle: string; embeddedVideoUrl: string };
/** One tab of the features section (the page shows four). */
export type FeatureTab = { tabName: string; tabImage: string; tabDescription: string };
export type FormSection = { title: string; subtitle: string; inputPlaceholder: string; actionButtonText: string };
/** `images`: the partners' logo urls, in carousel order. */
export type PartnersSection = { title: string; images: string[] };
export type Footer = {
  aboutCompany: string; actionButtonText: string; contactTitle: string; contactEmail: string; contactLocation: string; contactPhone: string;
  termsText: string; privacyText: string; copyright: string;
};
/** `text` is Markdown: `##` headings, paragraphs separated by a blank line, `-` lists. */
export type PrivacyPolicy = { text: string };

export type ContentItems = {
  hero: Hero[];
  aboutCards: AboutCard[];
  videoSection: VideoSection[];
  featuresSection: FeatureTab[];
  formSection: FormSection[];
  partnersSection: PartnersSection[];
  footer: Footer[];
  privacyPolicy: PrivacyPolicy[];
};

/** An item as a content source hands it over: its fields, links resolved to urls or nested items. */
export type ContentItem = Record<string, unknown>;
