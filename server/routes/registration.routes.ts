import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { allProjections } from '../../projections/index.ts';
import {
  carrierRegistrationSchema,
  registrationDocumentFields,
  shipperRegistrationSchema,
} from '../../domain/schemas/index.ts';
import { SUPER_ADMIN } from '../../domain/permissions.ts';
import { ValidationError, type FieldError } from '../../domain/shared/errors.ts';
import { requestPasswordReset, resetPassword } from '../commands/passwordReset.ts';
import {
  confirmSignup,
  registerOrganization,
  resendSignupCode,
  type Registration,
} from '../commands/registration.ts';
import type { App } from '../http/routeContext.ts';
import { can } from '../http/auth.ts';
import { listOutbox } from '../integrations/mail/mailer.ts';
import {
  confirmSignupContract,
  forgotPasswordContract,
  outboxContract,
  registerCarrierContract,
  registerShipperContract,
  resendSignupCodeContract,
  resetPasswordContract,
} from '../../domain/contracts/registration.contract.ts';
import { readMultipart } from '../integrations/files/uploads.ts';

export const SIGNUP_CODE_RESENT =
  'If a registration with this address is waiting for its code, a new code has been sent to it.';

/** Validates the multipart `data` JSON, naming each field that is wrong. */
function parseData<T extends z.ZodType>(schema: T, data: unknown): z.infer<T> {
  if (data === undefined)
    throw ValidationError.field('data', 'The registration form is missing (field data)');
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const errors: FieldError[] = result.error.issues.map((issue) => ({
    path: issue.path.join('.'),
    message: issue.message,
  }));
  throw new ValidationError(errors[0].message, errors);
}

/** The median of the last durations recorded (ms); `initial` until one is. */
function recentMedian(initial: number, size = 51) {
  const recent: number[] = [];
  return {
    record(ms: number) {
      recent.push(ms);
      if (recent.length > size) recent.shift();
    },
    median: () =>
      recent.length ? [...recent].sort((a, b) => a - b)[Math.floor(recent.length / 2)] : initial,
  };
}

/**
 * An answer that must take as long for an unknown address as for a known one, as the caller
 * measures it: from the request to the answer's last byte (reply.elapsedTime when it is sent). A
 * known address's time includes what runs between its handler's return and the answer (the read
 * models' post-commit listeners share the event loop), so that is what is recorded; an unknown
 * address waits until the known time's median, less the time its own answer usually takes once its
 * handler returned.
 */
function equalTiming() {
  const knownTime = recentMedian(50);
  const unknownAnswerTail = recentMedian(0);
  const timing = new WeakMap<object, { known: boolean; returnedAt: number }>();
  return {
    onResponse(request: FastifyRequest, reply: FastifyReply, done: () => void) {
      const seen = timing.get(request);
      if (seen && reply.statusCode === 200) {
        if (seen.known) knownTime.record(reply.elapsedTime);
        else unknownAnswerTail.record(reply.elapsedTime - seen.returnedAt);
      }
      done();
    },
    known(request: FastifyRequest, reply: FastifyReply) {
      timing.set(request, { known: true, returnedAt: reply.elapsedTime });
    },
    /** As slow as a known address (the median of the recent ones), so timing does not tell them apart. */
    async unknown(request: FastifyRequest, reply: FastifyReply) {
      const wait = knownTime.median() - unknownAnswerTail.median() - reply.elapsedTime;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      timing.set(request, { known: false, returnedAt: reply.elapsedTime });
    },
  };
}

/** Self-registration of carriers and shippers, sign-up confirmation and password recovery. */
export async function registrationRoutes(app: App) {
  const { platform } = app;
  const { runner, database } = platform;
  const resetTiming = equalTiming();
  const resendTiming = equalTiming();
  /** How long a registration takes once its form is read (ms): what a registered address's answer waits for. */
  const registrationTime = recentMedian(150);

  const register =
    (type: 'Carrier' | 'Shipper') =>
    // biome-ignore lint/suspicious/noExplicitAny: a multipart route has no body schema for Fastify to type the request with
    async (request: any, reply: any) => {
      const upload = await readMultipart(request, {
        files:
          type === 'Carrier'
            ? Object.fromEntries(
                registrationDocumentFields.map((name) => [
                  name,
                  { required: true, accept: 'pdf' as const },
                ]),
              )
            : {},
      });
      const form = parseData(
        type === 'Carrier' ? carrierRegistrationSchema : shipperRegistrationSchema,
        upload.data,
      );
      const startedAt = performance.now();
      const result = await registerOrganization(
        platform,
        { type, form, documents: upload.files } as Registration,
        request.id as string,
        new Date().toISOString(),
      );
      if (result.registered) {
        await runner.waitFor(['users', 'organizations'], result.position);
        registrationTime.record(performance.now() - startedAt);
      } else {
        // The address has an account: the answer is a new registration's, about as late as one.
        const wait = registrationTime.median() - (performance.now() - startedAt);
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
      return reply.code(201).send({ userId: result.userId, organizationId: result.organizationId });
    };

  app.post(
    '/register/carrier',
    {
      schema: {
        tags: ['registration'],
        summary:
          'Register a carrier (multipart: data JSON, mcAuthority, certificateOfInsurance, w9Form PDFs)',
        ...registerCarrierContract,
      },
      config: { public: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
    },
    register('Carrier'),
  );
  app.post(
    '/register/shipper',
    {
      schema: {
        tags: ['registration'],
        summary: 'Register a shipper (multipart: data JSON)',
        ...registerShipperContract,
      },
      config: { public: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
    },
    register('Shipper'),
  );

  app.post(
    '/confirm-signup',
    {
      schema: {
        tags: ['registration'],
        summary: 'Confirm the e-mail with the 6-digit code',
        ...confirmSignupContract,
      },
      config: { public: true, rateLimit: { max: 10, timeWindow: '1 minute' } },
    },
    async (request) => {
      const { position } = await confirmSignup(
        platform,
        request.body,
        request.id,
        new Date().toISOString(),
      );
      await runner.waitFor(['users'], position);
      return { message: 'Sign-up complete. An administrator will activate your account.' };
    },
  );

  app.post(
    '/confirm-signup/resend',
    {
      schema: {
        tags: ['registration'],
        summary:
          'E-mail a new sign-up code to a registration waiting for one (same answer for any address)',
        ...resendSignupCodeContract,
      },
      config: { public: true, rateLimit: { max: 5, timeWindow: '1 minute' } },
      onResponse: resendTiming.onResponse,
    },
    async (request, reply) => {
      const answer = { message: SIGNUP_CODE_RESENT };
      const { known, position } = await resendSignupCode(
        platform,
        request.body.email,
        request.id,
        new Date().toISOString(),
      );
      if (!known) {
        await resendTiming.unknown(request, reply);
        return answer;
      }
      await runner.waitFor(
        allProjections.map((projection) => projection.name),
        position,
      );
      resendTiming.known(request, reply);
      return answer;
    },
  );

  app.post(
    '/users/forgot-password',
    {
      schema: {
        tags: ['registration'],
        summary: 'E-mail a single-use reset code (same answer for unknown addresses)',
        ...forgotPasswordContract,
      },
      config: { public: true, rateLimit: { max: 5, timeWindow: '1 minute' } },
      onResponse: resetTiming.onResponse,
    },
    async (request, reply) => {
      const answer = { message: 'If the address is registered, a reset code has been sent to it.' };
      const { known, position } = await requestPasswordReset(
        platform,
        request.body.email,
        request.id,
        new Date().toISOString(),
      );
      if (!known) {
        await resetTiming.unknown(request, reply);
        return answer;
      }
      // Its projection's work counts in the time an unknown address copies, rather than slowing the next request.
      await runner.waitFor(
        allProjections.map((projection) => projection.name),
        position,
      );
      resetTiming.known(request, reply);
      return answer;
    },
  );

  app.post(
    '/users/reset-password',
    {
      schema: {
        tags: ['registration'],
        summary: 'Set a new password with the e-mailed code',
        ...resetPasswordContract,
      },
      config: { public: true, rateLimit: { max: 10, timeWindow: '1 minute' } },
    },
    async (request) => {
      const { position } = await resetPassword(
        platform,
        request.body,
        request.id,
        new Date().toISOString(),
      );
      await runner.waitFor(['users'], position);
      return { message: 'New password set successfully' };
    },
  );

  app.get(
    '/admin/outbox',
    {
      schema: {
        tags: ['admin'],
        summary: 'E-mails kept while no SMTP server is configured, newest first',
        ...outboxContract,
      },
      onRequest: can(SUPER_ADMIN),
    },
    async () => listOutbox(database.db, 100),
  );
}
