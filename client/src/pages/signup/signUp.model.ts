/**
 * The registration wizards of /signup/carrier and /signup/shipper: their steps, the values the form
 * holds, each step's check with the shared domain schemas (specification section 5), and the body
 * of register/carrier and register/shipper (docs/api.md).
 */
import { z } from 'zod';
import {
  acceptTermsSchema,
  carrierRegistrationSchema,
  checkDocument,
  dotNumberSchema,
  driverTeamsSchema,
  insuredAmountSchema,
  mcNumberSchema,
  registrationDocumentFields,
  registrationOrganizationSchema,
  shipperRegistrationSchema,
  trailersSchema,
  trucksSchema,
  userSignUpFormSchema,
  type FileProblem,
} from '../../../../domain/schemas/index.ts';

export type SignUpKind = 'carrier' | 'shipper';
export type DocumentField = (typeof registrationDocumentFields)[number];
export const documentFields: readonly DocumentField[] = registrationDocumentFields;

export interface VehicleLine {
  type: number;
  count: number;
}

/** Everything the wizard holds, flat: one entry per input. */
export interface SignUpValues {
  name: string;
  email: string;
  username: string;
  password: string;
  confirmPassword: string;
  phone: string;
  companyName: string;
  person: string;
  address: string;
  companyPhone: string;
  companyEmail: string;
  mcNumber: string;
  dotNumber: string;
  trucks: VehicleLine[];
  driverTeams: VehicleLine[];
  trailers: VehicleLine[];
  /** 1 under $100,000.00, 2 over; 0 while nothing is chosen. */
  insuredAmount: number;
  acceptTerms: boolean;
}

export type SignUpFiles = Partial<Record<DocumentField, File | null>>;
/** Field name (a key of SignUpValues, a document field, or 'trucks.0.count') to its English message. */
export type SignUpErrors = Record<string, string>;

export const emptySignUp = (): SignUpValues => ({
  name: '',
  email: '',
  username: '',
  password: '',
  confirmPassword: '',
  phone: '',
  companyName: '',
  person: '',
  address: '',
  companyPhone: '',
  companyEmail: '',
  mcNumber: '',
  dotNumber: '',
  trucks: [],
  driverTeams: [],
  trailers: [],
  insuredAmount: 0,
  acceptTerms: false,
});

export type StepId = 'account' | 'company' | 'authority' | 'fleet' | 'insurance' | 'review';

/** Carrier: account, company, MC/DOT with the three PDFs, fleet, terms. Shipper: account, company, insurance with terms. */
export const stepsOf = (kind: SignUpKind): readonly StepId[] =>
  kind === 'carrier'
    ? ['account', 'company', 'authority', 'fleet', 'review']
    : ['account', 'company', 'insurance'];

/** The fields each step shows; a message for one of them (from the server too) brings its step back. */
const stepFields: Record<StepId, readonly string[]> = {
  account: ['name', 'email', 'username', 'password', 'confirmPassword', 'phone'],
  company: ['companyName', 'person', 'address', 'companyPhone', 'companyEmail'],
  authority: ['mcNumber', 'dotNumber', ...registrationDocumentFields],
  fleet: ['trucks', 'driverTeams', 'trailers'],
  insurance: ['insuredAmount', 'acceptTerms'],
  review: ['acceptTerms'],
};

export function stepOfField(kind: SignUpKind, field: string): number {
  const root = field.split('.')[0] ?? field;
  const index = stepsOf(kind).findIndex((step) => stepFields[step].includes(root));
  return index === -1 ? 0 : index;
}

/** A document as the browser knows it: size and declared type (the server sniffs the bytes again). */
export const documentProblem = (file: File | null | undefined): FileProblem | null =>
  checkDocument(
    file
      ? {
          size: file.size,
          detectedMime:
            file.type || (file.name.toLowerCase().endsWith('.pdf') ? 'application/pdf' : ''),
        }
      : null,
  );

/** Body paths (zod's and the server's) to the form's own field names. */
const pathToField: Record<string, string> = {
  'userDetails.name': 'name',
  'userDetails.phone': 'phone',
  'organization.name': 'companyName',
  'organization.organizationContactInfo.address': 'address',
  'organization.organizationContactInfo.person': 'person',
  'organization.organizationContactInfo.email': 'companyEmail',
  'organization.organizationContactInfo.phone': 'companyPhone',
};

export function fieldOfPath(path: string): string {
  return pathToField[path] ?? path;
}

function collect(
  errors: SignUpErrors,
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  prefix = '',
) {
  for (const issue of issues) {
    const field = fieldOfPath(prefix + issue.path.map(String).join('.'));
    errors[field] ??= issue.message;
  }
}

function check(errors: SignUpErrors, schema: z.ZodType, input: unknown, prefix = '') {
  const result = schema.safeParse(input);
  if (!result.success) collect(errors, result.error.issues, prefix);
}

const organizationOf = (values: SignUpValues) => ({
  name: values.companyName,
  organizationContactInfo: {
    address: values.address,
    person: values.person,
    email: values.companyEmail,
    phone: values.companyPhone,
  },
});

const fleetSchema = z.object({
  trucks: trucksSchema,
  driverTeams: driverTeamsSchema,
  trailers: trailersSchema,
});
const authoritySchema = z.object({ mcNumber: mcNumberSchema, dotNumber: dotNumberSchema });

/** The messages of one step (English, the specification's texts); empty when the step may be left. */
export function validateStep(
  kind: SignUpKind,
  step: number,
  values: SignUpValues,
  files: SignUpFiles = {},
): SignUpErrors {
  const errors: SignUpErrors = {};
  switch (stepsOf(kind)[step]) {
    case 'account':
      check(errors, userSignUpFormSchema, {
        name: values.name,
        email: values.email,
        username: values.username,
        password: values.password,
        confirmPassword: values.confirmPassword,
        phone: values.phone,
      });
      break;
    case 'company':
      check(errors, registrationOrganizationSchema, organizationOf(values), 'organization.');
      break;
    case 'authority':
      check(errors, authoritySchema, { mcNumber: values.mcNumber, dotNumber: values.dotNumber });
      for (const field of documentFields) {
        const problem = documentProblem(files[field]);
        if (problem) errors[field] = problem;
      }
      break;
    case 'fleet':
      check(errors, fleetSchema, {
        trucks: values.trucks,
        driverTeams: values.driverTeams,
        trailers: values.trailers,
      });
      break;
    case 'insurance':
      check(errors, z.object({ insuredAmount: insuredAmountSchema }), {
        insuredAmount: values.insuredAmount,
      });
      check(errors, z.object({ acceptTerms: acceptTermsSchema }), {
        acceptTerms: values.acceptTerms,
      });
      break;
    case 'review':
      check(errors, z.object({ acceptTerms: acceptTermsSchema }), {
        acceptTerms: values.acceptTerms,
      });
      break;
    default:
      break;
  }
  return errors;
}

/** The JSON of the multipart field `data` (docs/api.md, register/*), checked by the same schema the server uses. */
export function registrationBody(kind: SignUpKind, values: SignUpValues) {
  const common = {
    email: values.email,
    username: values.username,
    password: values.password,
    userDetails: { name: values.name, phone: values.phone },
    organization: organizationOf(values),
    acceptTerms: values.acceptTerms,
  };
  return kind === 'carrier'
    ? {
        ...common,
        mcNumber: values.mcNumber,
        dotNumber: values.dotNumber,
        trucks: values.trucks,
        trailers: values.trailers,
        driverTeams: values.driverTeams,
      }
    : { ...common, insuredAmount: values.insuredAmount };
}

/** Every step at once, before sending: the first step holding a message, and all messages. */
export function validateAll(
  kind: SignUpKind,
  values: SignUpValues,
  files: SignUpFiles,
): { step: number; errors: SignUpErrors } | null {
  for (let step = 0; step < stepsOf(kind).length; step += 1) {
    const errors = validateStep(kind, step, values, files);
    if (Object.keys(errors).length > 0) return { step, errors };
  }
  const schema = kind === 'carrier' ? carrierRegistrationSchema : shipperRegistrationSchema;
  const result = schema.safeParse(registrationBody(kind, values));
  if (result.success) return null;
  const errors: SignUpErrors = {};
  collect(errors, result.error.issues);
  const first = Object.keys(errors)[0] ?? 'name';
  return { step: stepOfField(kind, first), errors };
}
