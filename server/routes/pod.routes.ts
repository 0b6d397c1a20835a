import { PodDataSchema, podContract } from '../../domain/contracts/pod.contract.ts';
import { TOUR_GET } from '../../domain/permissions.ts';
import { ValidationError } from '../../domain/shared/errors.ts';
import { createProofOfDeliveryCommands } from '../commands/proofOfDelivery.ts';
import { can, requireActor } from '../http/auth.ts';
import type { App } from '../http/routeContext.ts';
import { parseWith } from '../http/parseWith.ts';
import { readPodUpload } from '../integrations/files/podUploads.ts';
import { MARKETPLACE_VIEWS } from '../../projections/marketplace/marketplace.views.ts';

/**
 * Proof of delivery (docs/api.md "Proof of delivery"): the assigned driver sends it from the last
 * stop (multipart: `data`, `photo` files, `signature`); the tour's parties and the Superadmin read it.
 * The tour is looked up first, so another organization's tour answers 404 before anything else.
 */
export async function podRoutes(app: App) {
  const { store, marketplace, runner } = app.platform;
  const pod = createProofOfDeliveryCommands({ store, db: app.platform.database.db });

  app.post(
    '/tours/:id/pod',
    {
      schema: {
        tags: ['tours'],
        summary:
          'Record the proof of delivery (the assigned driver, from the arrival at the last stop until Delivered)',
        ...podContract.record,
      },
      onRequest: can(TOUR_GET),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      const caller = { actor, requestId: request.id };
      const tour = await marketplace.visibleTour(actor, request.params.id);
      // Who and when before the upload is read, so a refused proof costs no upload; unless the driver
      // recorded a proof here already: a retry of it is answered even after Delivered, once its id is read.
      const mayBeRetry = (tour.proofs ?? []).some((proof) => proof.recordedBy === actor.userId);
      if (!mayBeRetry) pod.check(caller, tour, undefined);
      const upload = await readPodUpload(request);
      if (upload.data === undefined)
        throw ValidationError.field('data', 'The data field is required');
      const data = parseWith(PodDataSchema, upload.data);
      pod.check(caller, tour, data.id);
      if (upload.photos.length === 0 && !upload.signature)
        throw ValidationError.field('photo', 'Add at least one photo or the signature');
      const { id, position } = await pod.record(
        caller,
        tour,
        { proofId: data.id, receivedBy: data.receivedBy, note: data.note ?? null },
        upload,
        new Date().toISOString(),
      );
      // The proof's line in the tour's timeline is read from the read model: the next read sees it.
      if (position) await runner.waitFor(MARKETPLACE_VIEWS, position);
      return reply.code(201).send({ id });
    },
  );

  app.get(
    '/tours/:id/pod',
    {
      schema: {
        tags: ['tours'],
        summary:
          "The tour's proofs of delivery, oldest first, with their files (read through files/{id})",
        ...podContract.list,
      },
      onRequest: can(TOUR_GET),
    },
    async (request) => {
      const tour = await marketplace.visibleTour(requireActor(request), request.params.id);
      return (tour.proofs ?? []).map((proof) => ({
        id: proof.proofId,
        receivedBy: proof.receivedBy,
        note: proof.note,
        at: proof.recordedAt,
        files: proof.files,
      }));
    },
  );
}
