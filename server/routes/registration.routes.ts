import { z } from 'zod';
import { allProjections } from '../../projections/index.ts';
import { userByResetCode } from '../../projections/users/users.queries.ts';
import {
  carrierRegistrationSchema,
  registrationDocumentFields,
  shipperRegistrationSchema,
} from '../../domain/schemas/index.ts';
import { SUPER_ADMIN } from '../../domain/permissions.ts';
import { ConflictError, ValidationError, type FieldError } from '../../domain/shared/errors.ts';
import {
  EMAIL_ALREADY_REGISTERED,
  USERNAME_ALREADY_TAKEN,
} from '../../domain/uniqueKeys/uniqueKey.ts';
import { INVALID_CONFIRMATION_CODE } from '../../domain/users/user.decide.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { App } from '../http/routeContext.ts';
import { can } from '../http/auth.ts';
import { hashCode, newId } from '../identity/identity.ts';
import { alreadyRegisteredNotice, createOrganizationWithUser } from '../identity/onboarding.ts';
import { createFileStore } from '../integrations/files/files.ts';
import { listOutbox } from '../integrations/mail/mailer.ts';
import {
  confirmSignupContract,
  forgotPasswordContract,
  outboxContract,
  registerCarrierContract,
  registerShipperContract,
  resetPasswordContract,
} from '../../domain/contracts/registration.contract.ts';
import { readMultipart } from '../integrations/files/uploads.ts';

const RESET_TTL_MS = 30 * 60 * 1000;

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

/** Self-registration of carriers and shippers, sign-up confirmation and password recovery. */
export async function registrationRoutes(app: App) {
  const { identity, mailer, runner, database } = app.platform;
  /**
   * Forgot-password must take as long for an unknown address as for a known one, as the caller
   * measures it: from the request to the answer's last byte (reply.elapsedTime when it is sent).
   * A known address's time includes what runs between its handler's return and the answer (the read
   * models' post-commit listeners share the event loop), so that is what is recorded; an unknown
   * address waits until the known time's median, less the time its own answer usually takes once
   * its handler returned.
   */
  const knownResetTime = recentMedian(50);
  const unknownAnswerTail = recentMedian(0);
  const resetTiming = new WeakMap<object, { known: boolean; returnedAt: number }>();
  const files = createFileStore(database.db);

  /** How long a registration takes once its form is read (ms): what a registered address's answer waits for. */
  const registrationTime = recentMedian(150);

  const register = (type: 'Carrier' | 'Shipper') => async (request: any, reply: any) => {
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
    const body = parseData(
      type === 'Carrier' ? carrierRegistrationSchema : shipperRegistrationSchema,
      upload.data,
    ) as any;
    const startedAt = performance.now();
    // The username first, whatever the e-mail: its 409 must not depend on whether the e-mail has an account.
    if (await identity.userIdByUsername(body.username))
      throw new ConflictError(USERNAME_ALREADY_TAKEN, [
        { path: 'username', message: USERNAME_ALREADY_TAKEN },
      ]);
    const now = new Date().toISOString();
    const organizationId = newId();
    const userId = newId();
    const cause = { userId, organizationId, requestId: request.id as string };
    // Saved before the events that point at them; removed again if the registration is refused.
    const documentIds: Record<string, string> = {};
    for (const [name, file] of Object.entries(upload.files)) {
      documentIds[name] = await files.save({
        organizationId,
        kind: name,
        mime: file.mime,
        data: file.buffer,
      });
    }
    try {
      const result = await createOrganizationWithUser(
        app.platform,
        {
          type,
          name: body.organization.name,
          contact: body.organization.organizationContactInfo,
          carrier:
            type === 'Carrier'
              ? {
                  mcNumber: body.mcNumber,
                  dotNumber: body.dotNumber,
                  eldProvider: null,
                  trucks: body.trucks,
                  trailers: body.trailers,
                  driverTeams: body.driverTeams,
                  documents: documentIds,
                }
              : null,
          shipper:
            type === 'Shipper'
              ? { insuredAmount: body.insuredAmount, signatureFileId: null }
              : null,
          status: 1,
        },
        {
          email: body.email,
          username: body.username,
          name: body.userDetails.name,
          phone: body.userDetails.phone,
          password: body.password,
          roleId: type === 'Carrier' ? 3 : 2,
        },
        cause,
        now,
        { organizationId, userId, sendCode: true },
      );
      await runner.waitFor(['users', 'organizations'], result.position);
      registrationTime.record(performance.now() - startedAt);
      return reply.code(201).send({ userId, organizationId });
    } catch (error) {
      await Promise.all(Object.values(documentIds).map((id) => files.delete(id)));
      if (!(error instanceof ConflictError && error.message === EMAIL_ALREADY_REGISTERED))
        throw error;
      // The address has an account: the answer is a new registration's (fresh ids that name nothing),
      // about as late as one, and its owner is told by e-mail. Nothing is written.
      await hashPassword(body.password);
      const ownerId = await identity.userIdByEmail(body.email);
      const owner = ownerId ? await identity.loadUser(ownerId) : null;
      if (owner) {
        await mailer
          .send(alreadyRegisteredNotice(owner, now))
          .catch((err) =>
            request.log.error({ err }, 'already-registered notice could not be sent'),
          );
      }
      const wait = registrationTime.median() - (performance.now() - startedAt);
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      return reply.code(201).send({ userId, organizationId });
    }
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
      const userId = await identity.userIdByEmail(request.body.email);
      if (!userId) {
        // A known address reads its user's stream before the decider answers; an unknown one reads as
        // much, and answers as a wrong code does (the decider's 400 for a confirmed account too).
        await identity.loadUser(newId());
        throw ValidationError.field('code', INVALID_CONFIRMATION_CODE);
      }
      const now = new Date().toISOString();
      const { position } = await identity.user(
        { type: 'ConfirmSignup', data: { userId, codeHash: hashCode(request.body.code), now } },
        { userId, organizationId: null, requestId: request.id },
        now,
      );
      await runner.waitFor(['users'], position);
      return { message: 'Sign-up complete. An administrator will activate your account.' };
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
      onResponse: (request, reply, done) => {
        const timing = resetTiming.get(request);
        if (timing && reply.statusCode === 200) {
          if (timing.known) knownResetTime.record(reply.elapsedTime);
          else unknownAnswerTail.record(reply.elapsedTime - timing.returnedAt);
        }
        done();
      },
    },
    async (request, reply) => {
      const answer = { message: 'If the address is registered, a reset code has been sent to it.' };
      const userId = await identity.userIdByEmail(request.body.email);
      const user = userId ? await identity.loadUser(userId) : null;
      if (!userId || !user || user.status === 3) {
        // As slow as a known address (the median of the recent ones), so timing does not tell them apart.
        const wait = knownResetTime.median() - unknownAnswerTail.median() - reply.elapsedTime;
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        resetTiming.set(request, { known: false, returnedAt: reply.elapsedTime });
        return answer;
      }
      const code = newId().replaceAll('-', '') + newId().replaceAll('-', '');
      const now = new Date().toISOString();
      const { position } = await identity.user(
        {
          type: 'RequestPasswordReset',
          data: {
            userId,
            resetCodeHash: hashCode(code),
            expiresAt: new Date(Date.now() + RESET_TTL_MS).toISOString(),
            now,
          },
        },
        { userId, organizationId: user.organizationId, requestId: request.id },
        now,
      );
      await mailer
        .send({
          to: user.email,
          subject: 'Reset your Freight Marketplace password',
          text: `Hello ${user.name},\n\nUse this link within 30 minutes to choose a new password (it works once):\n/reset-password?code=${code}\n\nReset code: ${code}\n\nIf you did not ask for it, ignore this message.`,
        })
        .catch((err) => request.log.error({ err }, 'reset e-mail could not be sent'));
      // Its projection's work counts in the time an unknown address copies, rather than slowing the next request.
      await runner.waitFor(
        allProjections.map((projection) => projection.name),
        position,
      );
      resetTiming.set(request, { known: true, returnedAt: reply.elapsedTime });
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
      const codeHash = hashCode(request.body.code);
      const row = await userByResetCode(database.db, codeHash);
      if (!row) throw ValidationError.field('code', 'Invalid or expired reset code');
      const now = new Date().toISOString();
      const { position } = await identity.user(
        {
          type: 'ResetPassword',
          data: {
            userId: row.id,
            resetCodeHash: codeHash,
            newPasswordHash: await hashPassword(request.body.newPassword),
            now,
          },
        },
        { userId: row.id, organizationId: row.organization_id, requestId: request.id },
        now,
      );
      // Every session of the user ends: whoever knew the old password is signed out.
      await app.platform.tokens.revokeAllForUser(row.id);
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
