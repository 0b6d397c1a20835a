import { sql } from 'kysely';
import type { ClaimEvent } from '../../domain/claims/claim.types.ts';
import { defineProjection } from '../projection.ts';

/**
 * The tours' accessorial claims (docs/domain.md "Accessorial terms and claims"): one row per claim,
 * its status moved by the approvals, disputes, answers, notes and settlements; what GET
 * tours/{id}/claims answers and where the silence reactor finds the claims whose window closed.
 */
export const claimsProjection = defineProjection({
  name: 'claims',
  version: 1,
  tables: ['claims_view'],
  handles: [
    'AccessorialClaimed',
    'AccessorialApproved',
    'AccessorialDisputed',
    'AccessorialAnswered',
    'AccessorialNoted',
    'AccessorialSettled',
  ],
  async apply(trx, events) {
    for (const recorded of events) {
      const event = recorded as unknown as ClaimEvent;
      switch (event.type) {
        case 'AccessorialClaimed': {
          const d = event.data;
          await sql`INSERT INTO claims_view (id, tour_id, load_id, shipper_organization_id, carrier_organization_id, kind,
              stop_index, minutes, amount, status, evidence, claimed_at, due_at, updated_at)
            VALUES (${d.claimId}, ${d.tourId}, ${d.loadId}, ${d.shipperOrganizationId}, ${d.carrierOrganizationId}, ${d.kind},
              ${d.stopIndex}, ${d.minutes}, ${d.amount}, 'claimed', ${JSON.stringify(d.evidence)}::jsonb, ${d.claimedAt}, ${d.dueAt}, ${d.claimedAt})
            ON CONFLICT (id) DO NOTHING`.execute(trx);
          break;
        }
        case 'AccessorialApproved': {
          const d = event.data;
          await sql`UPDATE claims_view SET status = 'approved', approved_by = ${d.bySilence ? 'silence' : 'shipper'},
              updated_at = ${d.approvedAt} WHERE id = ${d.claimId}`.execute(trx);
          break;
        }
        case 'AccessorialDisputed': {
          const d = event.data;
          await sql`UPDATE claims_view SET status = 'disputed', dispute_reason = ${d.reason}, updated_at = ${d.disputedAt}
            WHERE id = ${d.claimId}`.execute(trx);
          break;
        }
        case 'AccessorialAnswered': {
          const d = event.data;
          await sql`UPDATE claims_view SET status = 'answered', answer = ${d.text}, note = ${d.text}, updated_at = ${d.answeredAt}
            WHERE id = ${d.claimId}`.execute(trx);
          break;
        }
        case 'AccessorialNoted': {
          const d = event.data;
          await sql`UPDATE claims_view SET note = ${d.note}, updated_at = ${d.notedAt} WHERE id = ${d.claimId}`.execute(
            trx,
          );
          break;
        }
        case 'AccessorialSettled': {
          const d = event.data;
          await sql`UPDATE claims_view SET status = 'settled', settled_amount = ${d.amount}, settlement_note = ${d.note},
              updated_at = ${d.settledAt} WHERE id = ${d.claimId}`.execute(trx);
          break;
        }
      }
    }
  },
});
