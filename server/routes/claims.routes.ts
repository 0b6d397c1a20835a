import { claimsContract, LumperDataSchema } from '../../domain/contracts/claims.contract.ts';
import { TOUR_GET } from '../../domain/permissions.ts';
import { NotFoundError, ValidationError } from '../../domain/shared/errors.ts';
import { claimById, claimsOfTour } from '../../projections/claims/claims.queries.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { can, requireActor } from '../http/auth.ts';
import type { App } from '../http/routeContext.ts';
import { parseWith } from '../http/parseWith.ts';
import { readMultipart } from '../integrations/files/uploads.ts';

/**
 * Accessorial claims (docs/api.md "Accessorial terms and claims"): a tour's claims for its parties
 * and the Superadmin (others: 404); the shipper's dispatcher approves or disputes, the carrier
 * answers a dispute or adds a note, the Superadmin settles; the assigned driver sends a lumper
 * receipt. Each answer is the claim as the read model holds it after the change.
 */
export async function claimRoutes(app: App) {
  const { runner, claims } = app.platform;
  const { db } = app.platform.database;

  const claimAfter = async (claimId: string, position: LogPosition | null) => {
    if (position) await runner.waitFor(['claims'], position);
    const claim = await claimById(db, claimId);
    if (!claim) throw new NotFoundError('Claim not found');
    return claim;
  };

  app.get(
    '/tours/:id/claims',
    {
      schema: {
        tags: ['tours'],
        summary:
          "The tour's accessorial claims (detention, TONU, layover, lumper) with their evidence",
        ...claimsContract.list,
      },
      onRequest: can(TOUR_GET),
    },
    async (request) => {
      await claims.visibleTour(requireActor(request), request.params.id);
      return claimsOfTour(db, request.params.id);
    },
  );

  app.post(
    '/tours/:id/claims/:claimId/approve',
    {
      schema: {
        tags: ['tours'],
        summary: "Approve a claim (the shipper's dispatcher)",
        ...claimsContract.approve,
      },
      onRequest: can(TOUR_GET),
    },
    async (request) => {
      const { id, claimId } = request.params;
      const caller = { actor: requireActor(request), requestId: request.id };
      const position = await claims.approve(caller, id, claimId, new Date().toISOString());
      return claimAfter(claimId, position);
    },
  );

  app.post(
    '/tours/:id/claims/:claimId/dispute',
    {
      schema: {
        tags: ['tours'],
        summary: "Dispute a claim with a reason, within its window (the shipper's dispatcher)",
        ...claimsContract.dispute,
      },
      onRequest: can(TOUR_GET),
    },
    async (request) => {
      const { id, claimId } = request.params;
      const caller = { actor: requireActor(request), requestId: request.id };
      const position = await claims.dispute(
        caller,
        id,
        claimId,
        request.body.reason,
        new Date().toISOString(),
      );
      return claimAfter(claimId, position);
    },
  );

  app.post(
    '/tours/:id/claims/:claimId/answer',
    {
      schema: {
        tags: ['tours'],
        summary: 'Answer a disputed claim (the carrier)',
        ...claimsContract.answer,
      },
      onRequest: can(TOUR_GET),
    },
    async (request) => {
      const { id, claimId } = request.params;
      const caller = { actor: requireActor(request), requestId: request.id };
      const position = await claims.answer(
        caller,
        id,
        claimId,
        request.body.text,
        new Date().toISOString(),
      );
      return claimAfter(claimId, position);
    },
  );

  app.post(
    '/tours/:id/claims/:claimId/note',
    {
      schema: {
        tags: ['tours'],
        summary: 'Add a note to a claim (the carrier); the evidence and the amount never change',
        ...claimsContract.note,
      },
      onRequest: can(TOUR_GET),
    },
    async (request) => {
      const { id, claimId } = request.params;
      const caller = { actor: requireActor(request), requestId: request.id };
      const position = await claims.note(
        caller,
        id,
        claimId,
        request.body.text,
        new Date().toISOString(),
      );
      return claimAfter(claimId, position);
    },
  );

  app.post(
    '/tours/:id/claims/:claimId/settle',
    {
      schema: {
        tags: ['tours'],
        summary: 'Settle a disputed claim with an amount and a note (a Superadmin)',
        ...claimsContract.settle,
      },
      onRequest: can(TOUR_GET),
    },
    async (request) => {
      const { id, claimId } = request.params;
      const caller = { actor: requireActor(request), requestId: request.id };
      const position = await claims.settle(
        caller,
        id,
        claimId,
        { amount: request.body.amount, note: request.body.note },
        new Date().toISOString(),
      );
      return claimAfter(claimId, position);
    },
  );

  app.post(
    '/tours/:id/lumper',
    {
      schema: {
        tags: ['tours'],
        summary:
          'Send a lumper receipt for reimbursement (the assigned driver; multipart receipt + data {amount})',
        ...claimsContract.lumper,
      },
      onRequest: can(TOUR_GET),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const caller = { actor, requestId: request.id };
      // Another organization's tour answers 404 before the upload is read.
      claims.requireDriver(actor);
      await claims.visibleTour(actor, request.params.id);
      const upload = await readMultipart(request, {
        files: { receipt: { required: true, accept: 'image' } },
      });
      if (upload.data === undefined)
        throw ValidationError.field('data', 'The data field is required');
      const { amount } = parseWith(LumperDataSchema, upload.data);
      const receipt = upload.files.receipt!;
      const { claimId, position } = await claims.lumper(
        caller,
        request.params.id,
        amount,
        receipt,
        new Date().toISOString(),
      );
      return reply.code(201).send(await claimAfter(claimId, position));
    },
  );
}
