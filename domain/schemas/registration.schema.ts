/**
 * register/carrier and register/shipper (docs/api.md): the JSON of the multipart field `data`, and the
 * rules for the uploaded files (specification sections 5 and 9).
 */
import { z } from 'zod';
import { limits } from '../catalog.ts';
import { carrierFleetShape, insuredAmountSchema } from './carrierProfile.schema.ts';
import { registrationOrganizationSchema } from './organization.schema.ts';
import { userSignUpBodyShape } from './user.schema.ts';
import {
  ACCEPT_TERMS_MESSAGE,
  FILE_REQUIRED_MESSAGE,
  FILE_TOO_LARGE_MESSAGE,
  UNSUPPORTED_FORMAT_MESSAGE,
} from './messages.ts';

// Defined in messages.ts, apart from zod and luxon, for the browser's message tables.
export {
  ACCEPT_TERMS_MESSAGE,
  FILE_REQUIRED_MESSAGE,
  FILE_TOO_LARGE_MESSAGE,
  UNSUPPORTED_FORMAT_MESSAGE,
};

/** Must be exactly `true`. */
export const acceptTermsSchema = z.literal(true, { error: ACCEPT_TERMS_MESSAGE });

const registrationBase = {
  ...userSignUpBodyShape,
  organization: registrationOrganizationSchema,
  acceptTerms: acceptTermsSchema,
};

/** register/carrier, field `data`; the three documents come as files beside it. */
export const carrierRegistrationSchema = z.object({ ...registrationBase, ...carrierFleetShape });
export type CarrierRegistration = z.infer<typeof carrierRegistrationSchema>;

/** register/shipper, field `data`. */
export const shipperRegistrationSchema = z.object({
  ...registrationBase,
  insuredAmount: insuredAmountSchema,
});
export type ShipperRegistration = z.infer<typeof shipperRegistrationSchema>;

// Uploaded files

export const DOCUMENT_MAX_BYTES = limits.documentMaxBytes;
export const DOCUMENT_MIME_TYPES: readonly string[] = limits.documentMimeTypes;
export const SIGNATURE_MIME_TYPES: readonly string[] = limits.signatureMimeTypes;
/** The signature has no size rule of its own in the specification; it gets the documents' limit. */
export const SIGNATURE_MAX_BYTES = limits.documentMaxBytes;

/** The documents a carrier uploads at registration, each required. */
export const registrationDocumentFields = [
  'mcAuthority',
  'certificateOfInsurance',
  'w9Form',
] as const;
/** Every carrier document (the administrator's create and POST users/carrier also take the notice). */
export const carrierDocumentFields = [...registrationDocumentFields, 'noticeOfAssignment'] as const;
export type CarrierDocumentField = (typeof carrierDocumentFields)[number];

export type FileProblem =
  | typeof FILE_REQUIRED_MESSAGE
  | typeof FILE_TOO_LARGE_MESSAGE
  | typeof UNSUPPORTED_FORMAT_MESSAGE;

/** The HTTP status of each problem (docs/api.md): 400, 413 too large, 415 unsupported type. */
export const fileProblemStatus: Readonly<Record<FileProblem, 400 | 413 | 415>> = {
  [FILE_REQUIRED_MESSAGE]: 400,
  [FILE_TOO_LARGE_MESSAGE]: 413,
  [UNSUPPORTED_FORMAT_MESSAGE]: 415,
};

/**
 * What is known of an uploaded file: its size in bytes and the MIME type detected from its content
 * (on the server, sniffed from the bytes, never the client's claim; in the browser, `File.type`).
 */
export type UploadedFile = { size: number; detectedMime: string | null | undefined };

const checkFile = (
  file: UploadedFile | null | undefined,
  maxBytes: number,
  mimeTypes: readonly string[],
): FileProblem | null => {
  if (!file || !(file.size > 0)) return FILE_REQUIRED_MESSAGE;
  if (file.size > maxBytes) return FILE_TOO_LARGE_MESSAGE;
  if (!file.detectedMime || !mimeTypes.includes(file.detectedMime.toLowerCase()))
    return UNSUPPORTED_FORMAT_MESSAGE;
  return null;
};

/** Null for a PDF of at most 5,242,880 bytes; else the specification's message. An empty file counts as none. */
export const checkDocument = (file: UploadedFile | null | undefined): FileProblem | null =>
  checkFile(file, DOCUMENT_MAX_BYTES, DOCUMENT_MIME_TYPES);

/** Null for a JPEG or PNG of at most 5,242,880 bytes; else the specification's message. */
export const checkSignature = (file: UploadedFile | null | undefined): FileProblem | null =>
  checkFile(file, SIGNATURE_MAX_BYTES, SIGNATURE_MIME_TYPES);
