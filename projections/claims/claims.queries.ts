import type { Kysely } from 'kysely';
import type { DB } from '../../storage/schema.ts';

const iso = (value: Date | string) =>
  (value instanceof Date ? value : new Date(value)).toISOString();

/** A claim as GET tours/{id}/claims answers it (docs/api.md "Accessorial terms and claims"). */
export type ClaimRow = ReturnType<typeof toClaim>;

const toClaim = (row: {
  id: string;
  tour_id: string;
  kind: string;
  stop_index: number | null;
  minutes: number;
  amount: number;
  status: string;
  evidence: unknown;
  note: string | null;
  dispute_reason: string | null;
  answer: string | null;
  approved_by: string | null;
  settled_amount: number | null;
  settlement_note: string | null;
  claimed_at: Date | string;
  due_at: Date | string;
}) => ({
  id: row.id,
  tourId: row.tour_id,
  kind: row.kind as 'detention' | 'tonu' | 'layover' | 'lumper',
  stopIndex: row.stop_index,
  minutes: Number(row.minutes),
  amount: Number(row.amount),
  status: row.status as 'claimed' | 'approved' | 'disputed' | 'answered' | 'settled',
  evidence: (typeof row.evidence === 'string' ? JSON.parse(row.evidence) : row.evidence) as {
    arrivedAt: string | null;
    leftAt: string | null;
    appointmentAt: string | null;
    positionsInside: { latitude: number; longitude: number; at: string }[];
    receiptFileId?: string;
  },
  note: row.note,
  dueAt: iso(row.due_at),
  claimedAt: iso(row.claimed_at),
  disputeReason: row.dispute_reason,
  answer: row.answer,
  approvedBy: row.approved_by as 'shipper' | 'silence' | null,
  settledAmount: row.settled_amount === null ? null : Number(row.settled_amount),
  settlementNote: row.settlement_note,
});

/** A tour's claims, oldest first. */
export async function claimsOfTour(db: Kysely<DB>, tourId: string): Promise<ClaimRow[]> {
  const rows = await db
    .selectFrom('claims_view')
    .selectAll()
    .where('tour_id', '=', tourId)
    .orderBy('claimed_at')
    .orderBy('id')
    .execute();
  return rows.map(toClaim);
}

export async function claimById(db: Kysely<DB>, claimId: string): Promise<ClaimRow | null> {
  const row = await db
    .selectFrom('claims_view')
    .selectAll()
    .where('id', '=', claimId)
    .executeTakeFirst();
  return row ? toClaim(row) : null;
}

/** Claims still unanswered whose window closed by `now`: the silence reactor approves them. */
export async function claimsDue(
  db: Kysely<DB>,
  now: string,
  limit: number,
): Promise<{ id: string; tour_id: string }[]> {
  return db
    .selectFrom('claims_view')
    .select(['id', 'tour_id'])
    .where('status', '=', 'claimed')
    .where('due_at', '<=', new Date(now))
    .orderBy('due_at')
    .limit(limit)
    .execute();
}
