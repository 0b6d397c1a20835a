/**
 * Organisation fields with the specification's messages (section 5, "Organisation"): the contact
 * block of registration, the Organisation form and PUT users/organization, and the administrator's
 * POST users/organization.
 */
import { z } from 'zod';
import {
  carrierFleetShape,
  eldProviderSchema,
  insuredAmountSchema,
} from './carrierProfile.schema.ts';
import { emailSchema, requiredText } from './fields.ts';
import { phoneSchema } from './phone.ts';
import {
  COMPANY_NAME_MESSAGE,
  CONTACT_PERSON_MESSAGE,
  COMPANY_ADDRESS_MESSAGE,
  ORGANIZATION_TYPE_MESSAGE,
} from './messages.ts';

// Defined in messages.ts, apart from zod and luxon, for the browser's message tables.
export {
  COMPANY_NAME_MESSAGE,
  CONTACT_PERSON_MESSAGE,
  COMPANY_ADDRESS_MESSAGE,
  ORGANIZATION_TYPE_MESSAGE,
};

export const companyNameSchema = requiredText(COMPANY_NAME_MESSAGE);

/** `organizationContactInfo {address, person, email, phone}`. */
export const organizationContactInfoSchema = z.object({
  address: requiredText(COMPANY_ADDRESS_MESSAGE),
  person: requiredText(CONTACT_PERSON_MESSAGE),
  email: emailSchema,
  phone: phoneSchema,
});
export type OrganizationContactInfo = z.infer<typeof organizationContactInfoSchema>;

/** The Organisation form and PUT users/organization: `{address, person, email, name, phone}`. */
export const organizationContactSchema = organizationContactInfoSchema.extend({
  name: companyNameSchema,
});
export type OrganizationContactBody = z.infer<typeof organizationContactSchema>;

/** `organization {name, organizationContactInfo}` of register/carrier and register/shipper. */
export const registrationOrganizationSchema = z.object({
  name: companyNameSchema,
  organizationContactInfo: organizationContactInfoSchema,
});

const organizationBase = {
  name: companyNameSchema,
  organizationContactInfo: organizationContactInfoSchema,
};

/**
 * POST users/organization, field `data`: a Carrier with its ELD provider, MC and DOT numbers and
 * fleet (its four documents come as files), or a Shipper with its insured amount.
 */
export const createOrganizationDataSchema = z.discriminatedUnion(
  'type',
  [
    z.object({
      type: z.literal('Carrier'),
      ...organizationBase,
      ...carrierFleetShape,
      eldProvider: eldProviderSchema,
    }),
    z.object({
      type: z.literal('Shipper'),
      ...organizationBase,
      insuredAmount: insuredAmountSchema,
    }),
  ],
  { error: ORGANIZATION_TYPE_MESSAGE },
);
export type CreateOrganizationData = z.infer<typeof createOrganizationDataSchema>;
