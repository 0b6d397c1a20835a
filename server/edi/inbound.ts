/**
 * An interchange of 204 load tenders from a partner: the envelope checked (envelope.ts), each
 * tender read (tender204.ts), checked by the load form's own rules and carried out through the same
 * commands as the screens (post, edit or cancel a load, for the partner's shipper, in the name of
 * the manager who registered the partner). A failing set is rejected alone; its siblings go on. Each
 * functional group is answered by a 997, kept and delivered like any outgoing document; each set is
 * kept as an incoming document with its result.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { rolePermissions, Role } from '../../domain/permissions.ts';
import type {
  EdiError,
  EdiInboundAnswer,
  EdiTransactionResult,
} from '../../domain/contracts/edi.contract.ts';
import { loadBodySchema, type LoadBody } from '../../domain/schemas/load.schema.ts';
import { DomainError } from '../../domain/shared/errors.ts';
import type { DB } from '../../storage/schema.ts';
import type { Caller } from '../commands/caller.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { latest } from '../eventstore/eventStore.ts';
import { ack997 } from './ack997.ts';
import { readInbound, type InboundSet } from './envelope.ts';
import { separatorsOf, type PartnerRow, type Partners } from './partners.ts';
import { errorOfField, loadBodyOfTender, readTender, type GeocodedPlace } from './tender204.ts';
import { writeInterchange } from './x12.ts';

export type LoadCommandsForEdi = {
  postLoad(
    caller: Caller,
    body: LoadBody,
    now: string,
  ): Promise<{ id: string; position: LogPosition | null }>;
  updateLoad(
    caller: Caller,
    loadId: string,
    body: LoadBody,
    now: string,
  ): Promise<LogPosition | null>;
  cancelLoad(
    caller: Caller,
    loadId: string,
    message: string,
    now: string,
  ): Promise<LogPosition | null>;
};

export type OutgoingQueue = {
  /** Keeps an outgoing document for the partner (queued for its URL, or waiting in its mailbox). */
  queue(
    trx: Kysely<DB>,
    partner: PartnerRow,
    document: {
      type: string;
      raw: string;
      controlNumber: number;
      loadId: string | null;
      sourceEventId: string | null;
    },
  ): Promise<string | null>;
};

export function createInbound(deps: {
  db: Kysely<DB>;
  partners: Partners;
  loads: LoadCommandsForEdi;
  outgoing: OutgoingQueue;
  geocode: (query: string) => GeocodedPlace | null;
  ourId: string;
  clock: () => Date;
}) {
  const { db, partners, loads, outgoing, ourId, clock } = deps;

  const callerOf = (partner: PartnerRow, requestId: string): Caller => ({
    actor: {
      userId: partner.created_by,
      organizationId: partner.organization_id,
      roleId: Role.Shipper,
      permissions: rolePermissions[Role.Shipper],
      sessionId: `edi:${partner.id}`,
    },
    requestId,
  });

  const reject = (errors: EdiError[]) => ({ result: 'rejected' as const, errors });

  /** One 204: its tender carried out, or the errors that rejected it (nothing written then). */
  async function tender(
    partner: PartnerRow,
    set: InboundSet,
    caller: Caller,
    now: string,
  ): Promise<
    | { result: 'accepted'; loadId: string; position: LogPosition | null }
    | { result: 'rejected'; errors: EdiError[]; loadId?: string }
  > {
    if (set.errors.length > 0) return reject(set.errors);
    const read = readTender(set.segments);
    if ('errors' in read) return reject(read.errors);
    const { tender: tendered } = read;
    const known = await db
      .selectFrom('edi_tenders')
      .selectAll()
      .where('partner_id', '=', partner.id)
      .where('shipment_id', '=', tendered.shipmentId)
      .executeTakeFirst();
    const b2aError = (reason: string): EdiError => ({
      segment: 'B2',
      position: tendered.b2.position,
      element: 4,
      code: '7',
      reason,
    });
    if (tendered.purpose === 'cancel') {
      if (!known) return reject([b2aError(`No tender ${tendered.shipmentId} to cancel`)]);
      if (known.status === 'canceled')
        return { result: 'accepted', loadId: known.load_id, position: null };
      await db
        .updateTable('edi_tenders')
        .set({ status: 'canceled' })
        .where('partner_id', '=', partner.id)
        .where('shipment_id', '=', tendered.shipmentId)
        .execute();
      try {
        const result = await loads.cancelLoad(
          caller,
          known.load_id,
          `Tender ${tendered.shipmentId} canceled by EDI`,
          now,
        );
        return { result: 'accepted', loadId: known.load_id, position: result };
      } catch (error) {
        await db
          .updateTable('edi_tenders')
          .set({ status: known.status })
          .where('partner_id', '=', partner.id)
          .where('shipment_id', '=', tendered.shipmentId)
          .execute();
        if (error instanceof DomainError)
          return { ...reject([b2aError(error.message)]), loadId: known.load_id };
        throw error;
      }
    }
    if (tendered.purpose === 'change' && !known)
      return reject([b2aError(`No tender ${tendered.shipmentId} to change`)]);
    if (tendered.purpose === 'original' && known)
      return reject([b2aError(`Tender ${tendered.shipmentId} was already received`)]);
    if (known?.status === 'canceled')
      return reject([b2aError(`Tender ${tendered.shipmentId} was canceled`)]);

    const mapped = loadBodyOfTender(tendered, deps.geocode);
    if ('errors' in mapped) return reject(mapped.errors);
    const parsed = loadBodySchema(now).safeParse(mapped.body);
    if (!parsed.success) {
      const errors = parsed.error.issues.map((issue) =>
        errorOfField(issue.path.map(String).join('.'), issue.message, mapped.sources, tendered.b2),
      );
      // One error per segment and reason is enough.
      const seen = new Set<string>();
      return reject(
        errors.filter((each) => {
          const key = `${each.segment}:${each.position}:${each.element}:${each.reason}`;
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        }),
      );
    }
    try {
      if (known) {
        const result = await loads.updateLoad(caller, known.load_id, parsed.data, now);
        return { result: 'accepted', loadId: known.load_id, position: result };
      }
      const { id, position } = await loads.postLoad(caller, parsed.data, now);
      await db
        .insertInto('edi_tenders')
        .values({
          partner_id: partner.id,
          shipment_id: tendered.shipmentId,
          load_id: id,
          created_at: now,
        })
        .execute();
      return { result: 'accepted', loadId: id, position };
    } catch (error) {
      if (error instanceof DomainError) return reject([b2aError(error.message)]);
      throw error;
    }
  }

  /**
   * Carries out an interchange from `partner`; answers the results, the 997s queued for it and the
   * newest log position written.
   */
  async function receive(
    partner: PartnerRow,
    raw: string,
    requestId: string,
  ): Promise<{ answer: EdiInboundAnswer; position: LogPosition | null }> {
    const now = clock();
    const nowIso = now.toISOString();
    const interchange = readInbound(
      raw,
      { isaQualifier: partner.isa_qualifier, isaId: partner.isa_id, gsId: partner.gs_id },
      ourId,
    );
    const caller = callerOf(partner, requestId);
    const transactions: EdiTransactionResult[] = [];
    const acks: {
      functionalId: string;
      controlNumber: string;
      claimed: number;
      sets: { controlNumber: string; type: string; errors: EdiError[] }[];
      groupErrors: EdiError[];
    }[] = [];
    const incoming: {
      controlNumber: string;
      loadId: string | null;
      status: string;
      errors: EdiError[];
    }[] = [];
    let last: LogPosition | null = null;

    for (const group of interchange.groups) {
      const groupErrors = [...interchange.errors, ...group.errors];
      const acked: { controlNumber: string; type: string; errors: EdiError[] }[] = [];
      for (const set of group.sets) {
        const outcome =
          groupErrors.length > 0 ? reject([]) : await tender(partner, set, caller, nowIso);
        const errors = outcome.result === 'rejected' ? outcome.errors : [];
        const loadId = 'loadId' in outcome ? (outcome.loadId ?? null) : null;
        if (outcome.result === 'accepted') last = latest(last, outcome.position);
        transactions.push({
          setControlNumber: set.controlNumber,
          type: set.type || '204',
          result: outcome.result,
          ...(loadId && outcome.result === 'accepted' ? { loadId } : {}),
          ...(outcome.result === 'rejected'
            ? { errors: errors.length > 0 ? errors : groupErrors }
            : {}),
        });
        acked.push({ controlNumber: set.controlNumber, type: set.type || '204', errors });
        incoming.push({
          controlNumber: set.controlNumber,
          loadId,
          status: outcome.result,
          errors: outcome.result === 'rejected' && errors.length === 0 ? groupErrors : errors,
        });
      }
      acks.push({
        functionalId: group.functionalId,
        controlNumber: group.controlNumber,
        claimed: group.claimedSets,
        sets: acked,
        groupErrors,
      });
    }
    if (interchange.groups.length === 0) {
      // Nothing could be read as a group: one 997 rejecting what was sent, and the reasons kept.
      acks.push({
        functionalId: 'SM',
        controlNumber: '0',
        claimed: 0,
        sets: [],
        groupErrors: interchange.errors,
      });
      incoming.push({
        controlNumber: interchange.controlNumber ?? '0',
        loadId: null,
        status: 'rejected',
        errors: interchange.errors,
      });
    }

    const separators = separatorsOf(partner);
    await db.transaction().execute(async (trx) => {
      for (const document of incoming) {
        await trx
          .insertInto('edi_documents')
          .values({
            id: randomUUID(),
            partner_id: partner.id,
            organization_id: partner.organization_id,
            direction: 'in',
            type: '204',
            control_number: document.controlNumber,
            load_id: document.loadId,
            status: document.status,
            raw,
            errors: JSON.stringify(document.errors),
            created_at: now,
          })
          .execute();
      }
      for (const ack of acks) {
        const controlNumber = await partners.nextControlNumber(trx, partner.id);
        const text = writeInterchange({
          ourId,
          partner: {
            isaQualifier: partner.isa_qualifier,
            isaId: partner.isa_id,
            gsId: partner.gs_id,
          },
          separators,
          functionalId: 'FA',
          controlNumber,
          at: now,
          transactions: [
            ack997({
              functionalId: ack.functionalId,
              groupControlNumber: ack.controlNumber,
              claimedSets: ack.claimed,
              sets: ack.sets,
              groupErrors: ack.groupErrors,
            }),
          ],
        });
        await outgoing.queue(trx, partner, {
          type: '997',
          raw: text,
          controlNumber,
          loadId: null,
          sourceEventId: null,
        });
      }
    });

    const errors = interchange.errors.length > 0 ? interchange.errors : undefined;
    const groupLevel = interchange.groups.flatMap((group) => group.errors);
    return {
      answer: {
        interchangeControlNumber: interchange.controlNumber,
        transactions,
        ...(errors || groupLevel.length > 0 ? { errors: [...(errors ?? []), ...groupLevel] } : {}),
      },
      position: last,
    };
  }

  return { receive };
}
export type Inbound = ReturnType<typeof createInbound>;
