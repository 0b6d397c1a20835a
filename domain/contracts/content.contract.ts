/**
 * The public landing page: its content by type and the sign-up-interest form. An answer is the list
 * of items of one type: one item for most types; three cards for `aboutCards` and four tabs for
 * `featuresSection`. Image fields hold urls.
 */
import { z } from 'zod';
import { interestContactSchema } from '../schemas/fields.ts';
import { errorAnswers, MessageAnswerSchema } from './common.ts';

export const contentTypes = [
  'hero',
  'aboutCards',
  'videoSection',
  'featuresSection',
  'formSection',
  'partnersSection',
  'footer',
  'privacyPolicy',
] as const;
export type ContentType = (typeof contentTypes)[number];

export const HeroSchema = z.object({ title: z.string(), subtitle: z.string(), image: z.string() });
/** One card of the "about" row (the page shows three). */
export const AboutCardSchema = z.object({
  title: z.string(),
  description: z.string(),
  image: z.string(),
});
/** `embeddedVideoUrl` is framed by the page; the built-in one is a local animation, never a video site. */
export const VideoSectionSchema = z.object({
  title: z.string(),
  subtitle: z.string(),
  embeddedVideoUrl: z.string(),
});
/** One tab of the features section (the page shows four). */
export const FeatureTabSchema = z.object({
  tabName: z.string(),
  tabImage: z.string(),
  tabDescription: z.string(),
});
export const FormSectionSchema = z.object({
  title: z.string(),
  subtitle: z.string(),
  inputPlaceholder: z.string(),
  actionButtonText: z.string(),
});
/** `images`: the partners' logo urls, in carousel order. */
export const PartnersSectionSchema = z.object({ title: z.string(), images: z.array(z.string()) });
export const FooterSchema = z.object({
  aboutCompany: z.string(),
  actionButtonText: z.string(),
  contactTitle: z.string(),
  contactEmail: z.string(),
  contactLocation: z.string(),
  contactPhone: z.string(),
  termsText: z.string(),
  privacyText: z.string(),
  copyright: z.string(),
});
/** `text` is Markdown: `##` headings, paragraphs separated by a blank line, `-` lists. */
export const PrivacyPolicySchema = z.object({ text: z.string() });

export type Hero = z.infer<typeof HeroSchema>;
export type AboutCard = z.infer<typeof AboutCardSchema>;
export type VideoSection = z.infer<typeof VideoSectionSchema>;
export type FeatureTab = z.infer<typeof FeatureTabSchema>;
export type FormSection = z.infer<typeof FormSectionSchema>;
export type PartnersSection = z.infer<typeof PartnersSectionSchema>;
export type Footer = z.infer<typeof FooterSchema>;
export type PrivacyPolicy = z.infer<typeof PrivacyPolicySchema>;

/** The items of each type. */
export const ContentItemsSchema = z.object({
  hero: z.array(HeroSchema),
  aboutCards: z.array(AboutCardSchema),
  videoSection: z.array(VideoSectionSchema),
  featuresSection: z.array(FeatureTabSchema),
  formSection: z.array(FormSectionSchema),
  partnersSection: z.array(PartnersSectionSchema),
  footer: z.array(FooterSchema),
  privacyPolicy: z.array(PrivacyPolicySchema),
});
export type ContentItems = z.infer<typeof ContentItemsSchema>;

/**
 * An item as a content source hands it over: the fields of its type (above), links resolved to
 * urls or nested items. Declared open: an operator's Contentful entry may lack a field or add one.
 */
export const ContentItemSchema = z.record(z.string(), z.unknown());

export const ContentTypeParams = z.object({ type: z.string() });
/** `email` (the specification's name) holds what the visitor typed: usually an address, never format-checked. */
export const SendInfoBody = z.object({ email: interestContactSchema });

export const contentContract = {
  get: {
    params: ContentTypeParams,
    response: { 200: z.array(ContentItemSchema), ...errorAnswers(404, 429) },
  },
  /** 429 also when one address sends more than five a minute (with retry-after). */
  sendInfo: {
    body: SendInfoBody,
    response: { 200: MessageAnswerSchema, ...errorAnswers(400, 429) },
  },
};
