import { carrierOfferActions } from '../../../../domain/loads/loadRows.ts';
import { haversineMiles } from '../../../../domain/loads/route.ts';
import type { LoadRowPayload, OfferUpdatedPayload } from '../../../../domain/realtime/events.ts';
import type { TableAnswer } from '../../api/table.ts';
import type { CarrierSearch } from './CarrierSearchForm.tsx';
import type { MarketplaceRow } from '../../shared/loads/loads.api.ts';
import type { LoadPayerAnswer } from '../../shared/payers/payers.api.ts';

/**
 * The carriers' marketplace applies the rows the realtime channel pushes (`load:posted`,
 * `load:updated`, `proposal:updated`) to the rows it shows, as the server's search would: a load
 * that is open and matches the search comes in (or is replaced where it is), one that left the
 * marketplace or no longer matches goes.
 */

const round = (miles: number) => Math.round(miles * 10) / 10;

/** Whether the pushed load is on the marketplace now: open, not expired. */
export const isListed = (row: LoadRowPayload, now = Date.now()): boolean =>
  row.open && (row.expiration === null || Date.parse(row.expiration) > now);

/** The search of the form and of the table's search box, as `GET /api/loads/carrier` applies them. */
export function matchesSearch(
  row: LoadRowPayload & { payer?: LoadPayerAnswer },
  search: CarrierSearch,
  text = '',
): boolean {
  for (const [area, place] of [
    [search.origin, row.pickup],
    [search.destination, row.dropoff],
  ] as const) {
    if (!area) continue;
    const radius = area === search.origin ? search.originRadius : search.destinationRadius;
    if (haversineMiles(area, place) > radius) return false;
  }
  if (search.equipment.length > 0 && !search.equipment.some((id) => row.equipment.includes(id)))
    return false;
  const pickup = row.pickupTime ? Date.parse(row.pickupTime) : NaN;
  if (search.pickupFrom && !(pickup >= Date.parse(`${search.pickupFrom}T00:00`))) return false;
  if (search.pickupTo && !(pickup <= Date.parse(`${search.pickupTo}T23:59:59`))) return false;
  if (Number(search.maxWeight) > 0 && row.weight > Number(search.maxWeight)) return false;
  if (search.bookNowOnly && row.bookNowPrice == null) return false;
  // A pushed load carries no payer figure: with the filter set, only a row the server listed stays.
  if (search.maxDaysToPay) {
    const median = row.payer?.status === 'measured' ? row.payer.medianDaysToPay : null;
    if (median === null || median > search.maxDaysToPay) return false;
  }
  const needle = text.trim().toLowerCase();
  if (
    needle &&
    ![row.guid, row.commodity, row.pickup.address, row.dropoff.address].some((value) =>
      (value ?? '').toLowerCase().includes(needle),
    )
  )
    return false;
  return true;
}

/** The pushed load as this carrier's row: its own offer, actions and distances kept (or worked out for a new row). */
export function asCarrierRow(
  pushed: LoadRowPayload,
  search: CarrierSearch,
  existing?: MarketplaceRow,
): MarketplaceRow {
  const myOffer = existing?.myProposal ?? null;
  return {
    ...(existing ?? {}),
    ...pushed,
    myProposal: myOffer,
    originDistance: search.origin ? round(haversineMiles(search.origin, pushed.pickup)) : null,
    destinationDistance: search.destination
      ? round(haversineMiles(search.destination, pushed.dropoff))
      : null,
    actions: carrierOfferActions(myOffer?.status ?? null, true),
  } as unknown as MarketplaceRow;
}

/**
 * The rows after a pushed load: replaced where it is, gone when it left or no longer matches, and a
 * new match first (on the first page only; later pages keep their rows). `fresh` marks a new one.
 */
export function applyPushedLoad(
  rows: MarketplaceRow[],
  pushed: LoadRowPayload,
  search: CarrierSearch,
  options: { text?: string; firstPage?: boolean; limit?: number } = {},
): { rows: MarketplaceRow[]; delta: number; added: boolean } {
  const index = rows.findIndex((row) => row.id === pushed.id);
  const known = index >= 0 ? { ...pushed, payer: rows[index]!.payer } : pushed;
  const stays = isListed(pushed) && matchesSearch(known, search, options.text);
  if (index >= 0) {
    if (!stays)
      return { rows: rows.filter((row) => row.id !== pushed.id), delta: -1, added: false };
    const next = [...rows];
    next[index] = asCarrierRow(pushed, search, rows[index]);
    return { rows: next, delta: 0, added: false };
  }
  if (!stays || options.firstPage === false) return { rows, delta: stays ? 1 : 0, added: false };
  const next = [asCarrierRow(pushed, search), ...rows];
  return { rows: options.limit ? next.slice(0, options.limit) : next, delta: 1, added: true };
}

/** The same for a table page: its rows and its count of matches. */
export function applyPushedLoadToPage(
  answer: TableAnswer<MarketplaceRow>,
  pushed: LoadRowPayload,
  search: CarrierSearch,
  text: string,
): TableAnswer<MarketplaceRow> {
  const { rows, delta } = applyPushedLoad(answer.data, pushed, search, {
    text,
    firstPage: answer.page <= 1,
    limit: answer.pageSize,
  });
  if (rows === answer.data && delta === 0) return answer;
  const total = Math.max(0, answer.total + delta);
  return {
    ...answer,
    data: rows,
    total,
    totalPages: Math.max(1, Math.ceil(total / Math.max(1, answer.pageSize))),
  };
}

/** Our offer on a row changed (countered, accepted, declined, withdrawn): its row says so. */
export function applyOfferUpdate(
  rows: MarketplaceRow[],
  update: OfferUpdatedPayload,
  statusName: (status: number) => string,
): MarketplaceRow[] {
  if (!rows.some((row) => row.myProposal?.id === update.proposalId)) return rows;
  return rows.map((row) =>
    row.myProposal?.id === update.proposalId
      ? {
          ...row,
          myProposal: {
            ...row.myProposal,
            status: update.status,
            statusName: statusName(update.status),
            price: update.price,
            counterPrice: update.counterPrice,
          },
          actions: carrierOfferActions(update.status, row.open !== false),
        }
      : row,
  );
}
