/** Self-registration of carriers and shippers, sign-up confirmation, password recovery, the kept e-mails. */
import { z } from 'zod';
import {
  confirmSignupBodySchema,
  forgotPasswordBodySchema,
  resendSignupCodeBodySchema,
  resetPasswordBodySchema,
} from '../schemas/index.ts';
import { errorAnswers, guardedErrors, MessageAnswerSchema } from './common.ts';

/** A file part of a multipart form (its type is read from its bytes). */
export const FilePartSchema = z.string().meta({ type: 'string', format: 'binary' });

/** The `data` part of a multipart form: the form's fields as one JSON text. */
const dataPart = (description: string) => z.string().meta({ description });

/**
 * Multipart bodies are read by the handler (parts streamed, files checked by their bytes, `data`
 * validated naming each wrong field); the schema documents the parts and lets the streamed body (null here) through
 * to that check.
 */
export const CarrierRegistrationFormSchema = z
  .object({
    data: dataPart(
      'The registration as JSON: email, username, password, userDetails, organization, acceptTerms, mcNumber, dotNumber, trucks, trailers, driverTeams',
    ),
    mcAuthority: FilePartSchema,
    certificateOfInsurance: FilePartSchema,
    w9Form: FilePartSchema,
  })
  .nullish();
export const ShipperRegistrationFormSchema = z
  .object({
    data: dataPart(
      'The registration as JSON: email, username, password, userDetails, organization, acceptTerms, insuredAmount',
    ),
  })
  .nullish();

export const RegisteredSchema = z
  .object({ userId: z.string(), organizationId: z.string() })
  .meta({ id: 'Registered' });
export type Registered = z.infer<typeof RegisteredSchema>;

/** An e-mail kept while no SMTP server is configured. */
export const OutboxEntrySchema = z
  .object({ id: z.string(), to: z.string(), subject: z.string(), text: z.string(), at: z.string() })
  .meta({ id: 'OutboxEntry' });
export type OutboxEntry = z.infer<typeof OutboxEntrySchema>;

/** 409 'Username already taken', or 'Registration already started, please enter the security code' (code `registration_pending`) to whoever began it. */
const registrationResponse = { 201: RegisteredSchema, ...errorAnswers(400, 409, 413, 415, 429) };
export const registerCarrierContract = {
  consumes: ['multipart/form-data'],
  body: CarrierRegistrationFormSchema,
  response: registrationResponse,
};
export const registerShipperContract = {
  consumes: ['multipart/form-data'],
  body: ShipperRegistrationFormSchema,
  response: registrationResponse,
};
/** 410 when the code has expired, 409 when the address is confirmed already. */
export const confirmSignupContract = {
  body: confirmSignupBodySchema,
  response: { 200: MessageAnswerSchema, ...errorAnswers(400, 409, 410, 429) },
};
/** The same answer whatever the address. */
export const resendSignupCodeContract = {
  body: resendSignupCodeBodySchema,
  response: { 200: MessageAnswerSchema, ...errorAnswers(400, 429) },
};
export const forgotPasswordContract = {
  body: forgotPasswordBodySchema,
  response: { 200: MessageAnswerSchema, ...errorAnswers(400, 429) },
};
export const resetPasswordContract = {
  body: resetPasswordBodySchema,
  response: { 200: MessageAnswerSchema, ...errorAnswers(400, 409, 429) },
};
export const outboxContract = { response: { 200: z.array(OutboxEntrySchema), ...guardedErrors } };
