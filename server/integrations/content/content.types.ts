/**
 * The landing page's content types and the fields of their items, as the specification names them
 * (section 3, "Landing content"): declared by the HTTP contract (`domain/contracts/content.contract.ts`).
 */
import { contentTypes, type ContentType } from '../../../domain/contracts/content.contract.ts';

export {
  contentTypes,
  type AboutCard,
  type ContentItems,
  type ContentType,
  type FeatureTab,
  type Footer,
  type FormSection,
  type Hero,
  type PartnersSection,
  type PrivacyPolicy,
  type VideoSection,
} from '../../../domain/contracts/content.contract.ts';

export const isContentType = (value: string): value is ContentType =>
  (contentTypes as readonly string[]).includes(value);

/** An item as a content source hands it over: its fields, links resolved to urls or nested items. */
export type ContentItem = Record<string, unknown>;
