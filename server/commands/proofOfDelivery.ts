/**
 * Proof of delivery: the assigned driver's photos, the receiver's signature, who received the goods
 * and a note, recorded on the tour (`ProofOfDeliveryRecorded` in `tour-<id>`, decided by the tour's
 * rules) with its files stored once, owned by the tour (its parties, its driver and the Superadmin
 * read them through GET files/{id}).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  assertMayRecordProof,
  recordedProof,
  tourDecider,
} from '../../domain/tours/tour.decide.ts';
import {
  tourStream,
  type OpenedTour,
  type ProofFile,
  type Tour,
  type TourCommand,
  type TourEvent,
} from '../../domain/tours/tour.types.ts';
import type { DB } from '../../storage/schema.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore, LogPosition } from '../eventstore/eventStore.ts';
import { createFileStore } from '../integrations/files/files.ts';
import type { PodUpload } from '../integrations/files/podUploads.ts';
import { metadataOf, type Caller } from './caller.ts';
import { tourActorOf } from './streams.ts';

const extension = (mime: string) => (mime === 'image/png' ? 'png' : 'jpg');

export function createProofOfDeliveryCommands(deps: { store: EventStore; db: Kysely<DB> }) {
  const { store, db } = deps;
  const files = createFileStore(db);

  return {
    /**
     * Whether the caller may send a proof for this tour now (else the refusal is thrown): asked
     * before the upload is read. A retry of a proof already recorded passes.
     */
    check(caller: Caller, tour: OpenedTour, proofId: string | undefined): void {
      const actor = tourActorOf(caller.actor);
      const already = proofId ? recordedProof(tour, proofId) : null;
      if (already && already.recordedBy === actor.userId) return;
      assertMayRecordProof(tour, actor);
    },

    /**
     * Records the proof once: a retry with the same `proofId` answers the proof already recorded and
     * stores nothing. The files are stored first and removed again when the tour takes no event.
     */
    async record(
      caller: Caller,
      tour: OpenedTour,
      proof: { proofId?: string; receivedBy: string; note: string | null },
      upload: PodUpload,
      now: string,
    ): Promise<{ id: string; position: LogPosition | null }> {
      const proofId = proof.proofId ?? randomUUID();
      const actor = tourActorOf(caller.actor);
      const already = recordedProof(tour, proofId);
      if (already && already.recordedBy === actor.userId) return { id: proofId, position: null };
      const list = [
        ...upload.photos.map((photo, index) => ({
          kind: 'photo' as const,
          name: `photo-${index + 1}.${extension(photo.mime)}`,
          file: photo,
        })),
        ...(upload.signature
          ? [{ kind: 'signature' as const, name: 'signature.png', file: upload.signature }]
          : []),
      ];
      const ids = await files.saveAll(
        list.map(({ kind, file }) => ({
          organizationId: tour.carrierOrganizationId,
          kind: `pod-${kind}`,
          mime: file.mime,
          data: file.buffer,
          tourId: tour.tourId,
        })),
      );
      const discard = async () => {
        for (const id of ids) await files.delete(id).catch(() => undefined);
      };
      const proofFiles: ProofFile[] = list.map(({ kind, name }, index) => ({
        id: ids[index],
        kind,
        name,
      }));
      try {
        const command: TourCommand = {
          type: 'RecordProofOfDelivery',
          data: {
            tourId: tour.tourId,
            actor,
            proofId,
            receivedBy: proof.receivedBy,
            note: proof.note,
            files: proofFiles,
            now,
          },
        };
        const result = await handleCommand<Tour, TourCommand, TourEvent>(
          store,
          tourStream(tour.tourId),
          tourDecider,
          command,
          metadataOf(caller, now, tour.loadId),
        );
        // A copy of the same proof won the race: its files are the ones kept.
        if (result.events.length === 0) await discard();
        return { id: proofId, position: result.position };
      } catch (error) {
        await discard();
        throw error;
      }
    },
  };
}
export type ProofOfDeliveryCommands = ReturnType<typeof createProofOfDeliveryCommands>;
