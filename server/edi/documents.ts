/**
 * The EDI documents in and out: kept with their X12 text; an outgoing one queued for its partner's
 * URL (the sender delivers it) or waiting in its mailbox until fetched and acknowledged. The
 * shipper's manager lists them (table protocol), reads one's text, and sends one again.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { EdiDocumentRow, EdiError } from '../../domain/contracts/edi.contract.ts';
import { ConflictError, NotFoundError } from '../../domain/shared/errors.ts';
import type { DB } from '../../storage/schema.ts';
import type { OutgoingQueue } from './inbound.ts';
import type { PartnerRow } from './partners.ts';

export type DocumentQuery = {
  page: number;
  pageSize: number;
  search?: string | undefined;
  directions: string[];
  types: string[];
  statuses: string[];
};

/**
 * What a 990 or a 214 we sent says, as its X12 code: the 990's reservation action (B104, `A` or
 * `D`), the 214's shipment status (AT701: `X3`, `AF`, `X1`, `D1`). The separators are the
 * interchange's own: the element one is ISA's 4th character, the segment one its 106th.
 */
export function codeOf(type: string, raw: string): string | null {
  if (!raw.startsWith('ISA') || raw.length < 106) return null;
  const element = raw[3]!;
  const segment = raw[105]!;
  const [tag, index] = type === '990' ? ['B1', 4] : type === '214' ? ['AT7', 1] : [null, 0];
  if (!tag) return null;
  for (const text of raw.split(segment)) {
    const elements = text.trim().split(element);
    if (elements[0] === tag) return elements[index]?.trim() || null;
  }
  return null;
}

const iso = (value: Date | string | null) => (value ? new Date(value).toISOString() : null);

export function createDocuments(deps: { db: Kysely<DB>; clock: () => Date; wake: () => void }) {
  const { db, clock } = deps;

  const queue: OutgoingQueue['queue'] = async (trx, partner, document) => {
    const id = randomUUID();
    const toUrl = Boolean(partner.deliver_url);
    const inserted = await trx
      .insertInto('edi_documents')
      .values({
        id,
        partner_id: partner.id,
        organization_id: partner.organization_id,
        direction: 'out',
        type: document.type,
        control_number: String(document.controlNumber).padStart(9, '0'),
        load_id: document.loadId,
        status: toUrl ? 'queued' : 'waiting',
        raw: document.raw,
        source_event_id: document.sourceEventId,
        next_attempt_at: toUrl ? clock() : null,
        created_at: clock(),
      })
      .onConflict((conflict) => conflict.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (inserted && toUrl) queueMicrotask(deps.wake);
    return inserted?.id ?? null;
  };

  async function list(organizationId: string, query: DocumentQuery) {
    let base = db
      .selectFrom('edi_documents as d')
      .innerJoin('edi_partners as p', 'p.id', 'd.partner_id')
      .leftJoin('loads_view as l', 'l.id', 'd.load_id')
      .where('d.organization_id', '=', organizationId);
    if (query.directions.length > 0)
      base = base.where('d.direction', 'in', query.directions as ('in' | 'out')[]);
    if (query.types.length > 0) base = base.where('d.type', 'in', query.types);
    if (query.statuses.length > 0) base = base.where('d.status', 'in', query.statuses);
    if (query.search) {
      const like = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      base = base.where((eb) =>
        eb.or([
          eb('d.control_number', 'ilike', like),
          eb('p.name', 'ilike', like),
          eb(sql<string>`coalesce(d.load_id::text, '')`, 'ilike', like),
        ]),
      );
    }
    const { count } = await base
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    const rows = await base
      .select([
        'd.id',
        'd.partner_id',
        'p.name as partner',
        'd.direction',
        'd.type',
        'd.control_number',
        'd.load_id',
        'l.guid as load_guid',
        'd.status',
        'd.errors',
        'd.attempts',
        'd.last_error',
        'd.created_at',
        // Only the small documents we send carry a code worth reading (a 204 in keeps its whole interchange).
        sql<
          string | null
        >`case when d.direction = 'out' and d.type in ('990', '214') then d.raw end`.as(
          'coded_raw',
        ),
      ])
      .orderBy('d.seq', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute();
    const data: EdiDocumentRow[] = rows.map((row) => ({
      id: row.id,
      partnerId: row.partner_id,
      partner: row.partner,
      direction: row.direction,
      type: row.type,
      controlNumber: row.control_number,
      loadId: row.load_id,
      loadGuid: row.load_guid ?? null,
      code: row.coded_raw ? codeOf(row.type, row.coded_raw) : null,
      status: row.status,
      errors: (row.errors ?? []) as EdiError[],
      attempts: row.attempts,
      lastError: row.last_error,
      at: iso(row.created_at)!,
    }));
    return { total: Number(count), rows: data };
  }

  const documentOf = async (organizationId: string, id: string) => {
    const row = await db
      .selectFrom('edi_documents')
      .selectAll()
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError('EDI document not found');
    return row;
  };

  async function raw(organizationId: string, id: string): Promise<string> {
    return (await documentOf(organizationId, id)).raw;
  }

  /** Sends an outgoing document again: queued for the URL, or back in the mailbox. */
  async function resend(organizationId: string, id: string) {
    const row = await documentOf(organizationId, id);
    if (row.direction !== 'out')
      throw new ConflictError('Only documents we sent can be sent again');
    const partner = await db
      .selectFrom('edi_partners')
      .select(['deliver_url'])
      .where('id', '=', row.partner_id)
      .executeTakeFirstOrThrow();
    const status = partner.deliver_url ? 'queued' : 'waiting';
    await db
      .updateTable('edi_documents')
      .set({
        status,
        next_attempt_at: partner.deliver_url ? clock() : null,
        fetched_at: null,
        created_at: row.created_at,
      })
      .where('id', '=', id)
      .execute();
    if (partner.deliver_url) deps.wake();
    return { id, status };
  }

  /** The partner's outgoing documents not yet acknowledged, oldest first. */
  async function mailbox(partner: PartnerRow) {
    const rows = await db
      .selectFrom('edi_documents')
      .select(['id', 'type', 'control_number', 'load_id', 'created_at', 'raw'])
      .where('partner_id', '=', partner.id)
      .where('direction', '=', 'out')
      .where('status', '=', 'waiting')
      .orderBy('seq')
      .limit(500)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      type: row.type,
      controlNumber: row.control_number,
      loadId: row.load_id,
      at: iso(row.created_at)!,
      raw: row.raw,
    }));
  }

  async function acknowledge(partner: PartnerRow, ids: string[]) {
    const result = await db
      .updateTable('edi_documents')
      .set({ status: 'fetched', fetched_at: clock() })
      .where('partner_id', '=', partner.id)
      .where('direction', '=', 'out')
      .where('status', '=', 'waiting')
      .where('id', 'in', ids)
      .executeTakeFirst();
    return { acknowledged: Number(result.numUpdatedRows) };
  }

  return { queue, list, raw, resend, mailbox, acknowledge };
}
export type Documents = ReturnType<typeof createDocuments>;
