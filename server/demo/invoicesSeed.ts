/**
 * The demo's paid and unpaid invoices over the past year, so that days-to-pay and aging show at
 * once: shipper1 pays within about ten days on 30-day terms, shipper2 takes about 45 days, is late on
 * most and has invoices open past their due date (one paid and then reported not received), and
 * shipper3 has paid two so far, a new payer. Written
 * as the invoice events their commands record, one stream per invoice, spread over the three carriers.
 */
import { randomUUID } from 'node:crypto';
import { invoiceNumber } from '../../domain/invoices/invoice.decide.ts';
import {
  invoiceNumbersStream,
  invoiceStream,
  type InvoiceEvent,
  type RemitTo,
} from '../../domain/invoices/invoice.types.ts';
import { latest, type LogPosition } from '../eventstore/eventStore.ts';
import type { Platform } from '../platform.ts';
import type { DemoUser } from './demoUsers.ts';

const DAY = 86_400_000;
const TERMS_DAYS = 30;

type Habit = {
  shipper: DemoUser;
  /** Invoices submitted, oldest first: days ago, and days to pay (null: still unpaid). */
  invoices: {
    submittedDaysAgo: number;
    daysToPay: number | null;
    denied?: boolean;
    /** The carrier (index) that sent it; else they take turns. */
    carrier?: number;
  }[];
};

/** Fast: paid in 7 to 13 days; the last two still inside their terms. */
const fastHabit = (shipper: DemoUser): Habit => ({
  shipper,
  invoices: [
    ...Array.from({ length: 22 }, (_, n) => ({
      submittedDaysAgo: 350 - n * 15,
      daysToPay: 7 + ((n * 5) % 7),
    })),
    { submittedDaysAgo: 8, daysToPay: null, carrier: 0 },
    { submittedDaysAgo: 3, daysToPay: null, carrier: 1 },
  ],
});

/** Slow: paid in 36 to 56 days, mostly after the due date; four open past due, one receipt denied. */
const slowHabit = (shipper: DemoUser): Habit => ({
  shipper,
  invoices: [
    ...Array.from({ length: 16 }, (_, n) => ({
      submittedDaysAgo: 360 - n * 19,
      daysToPay: 36 + ((n * 7) % 21),
    })),
    { submittedDaysAgo: 140, daysToPay: null, carrier: 0 },
    { submittedDaysAgo: 95, daysToPay: 40, denied: true, carrier: 1 },
    { submittedDaysAgo: 70, daysToPay: null, carrier: 0 },
    { submittedDaysAgo: 45, daysToPay: null, carrier: 2 },
    { submittedDaysAgo: 20, daysToPay: null, carrier: 0 },
  ],
});

/** New: two paid, one open. */
const newHabit = (shipper: DemoUser): Habit => ({
  shipper,
  invoices: [
    { submittedDaysAgo: 40, daysToPay: 14 },
    { submittedDaysAgo: 25, daysToPay: 12 },
    { submittedDaysAgo: 6, daysToPay: null, carrier: 0 },
  ],
});

const linehaul = (n: number) => 900 + ((n * 137) % 1900);

export async function seedDemoInvoices(
  platform: Platform,
  parties: { fast: DemoUser; slow: DemoUser; fresh: DemoUser | null; carriers: DemoUser[] },
  now = Date.now(),
): Promise<LogPosition | null> {
  const iso = (at: number) => new Date(at).toISOString();
  const numbers = new Map<string, number>();
  let last: LogPosition | null = null;
  let n = 0;
  const habits = [fastHabit(parties.fast), slowHabit(parties.slow)];
  if (parties.fresh) habits.push(newHabit(parties.fresh));
  for (const habit of habits) {
    for (const planned of habit.invoices) {
      const carrier = parties.carriers[(planned.carrier ?? n) % parties.carriers.length]!;
      const number = (numbers.get(carrier.organizationId) ?? 0) + 1;
      numbers.set(carrier.organizationId, number);
      const total = linehaul(++n);
      const invoiceId = randomUUID();
      const loadId = randomUUID();
      const submittedAt = now - planned.submittedDaysAgo * DAY;
      const draftedAt = submittedAt - DAY;
      const remitTo: RemitTo = { name: carrier.name, address: 'On file', factor: false };
      const events: { event: InvoiceEvent; at: number; userId: string | null }[] = [
        {
          at: draftedAt,
          userId: null,
          event: {
            type: 'InvoiceDrafted',
            data: {
              invoiceId,
              number: invoiceNumber(number),
              loadId,
              loadGuid: `HIST-${String(n).padStart(5, '0')}`,
              tourId: randomUUID(),
              carrierOrganizationId: carrier.organizationId,
              shipperOrganizationId: habit.shipper.organizationId,
              termsDays: TERMS_DAYS,
              lines: [{ kind: 'linehaul', description: 'Line haul', amount: total }],
              total,
              remitTo,
              draftedAt: iso(draftedAt),
            },
          },
        },
        {
          at: submittedAt,
          userId: carrier.caller.actor.userId,
          event: {
            type: 'InvoiceSubmitted',
            data: {
              invoiceId,
              reference: null,
              submittedBy: carrier.caller.actor.userId,
              submittedAt: iso(submittedAt),
              dueAt: iso(submittedAt + TERMS_DAYS * DAY),
              total,
              pdfFileId: randomUUID(),
              pdfSha256: '0'.repeat(64),
            },
          },
        },
      ];
      if (planned.daysToPay !== null) {
        const paidAt = submittedAt + planned.daysToPay * DAY;
        events.push({
          at: paidAt,
          userId: habit.shipper.caller.actor.userId,
          event: {
            type: 'InvoicePaid',
            data: {
              invoiceId,
              reference: `ACH-${String(n).padStart(6, '0')}`,
              paidAt: iso(paidAt),
              amount: total,
              recordedBy: habit.shipper.caller.actor.userId,
              recordedAt: iso(paidAt),
            },
          },
        });
        const answeredAt = paidAt + 2 * DAY;
        if (answeredAt < now)
          events.push({
            at: answeredAt,
            userId: carrier.caller.actor.userId,
            event: planned.denied
              ? {
                  type: 'InvoiceReceiptDenied',
                  data: {
                    invoiceId,
                    deniedBy: carrier.caller.actor.userId,
                    deniedAt: iso(answeredAt),
                  },
                }
              : {
                  type: 'InvoiceReceiptConfirmed',
                  data: {
                    invoiceId,
                    confirmedBy: carrier.caller.actor.userId,
                    confirmedAt: iso(answeredAt),
                  },
                },
          });
      }
      // The number is reserved in the carrier's numbering stream first, as a draft reserves it, so
      // the invoices drafted after the demo's history go on from the last one.
      last = latest(
        last,
        (
          await platform.store.append(
            invoiceNumbersStream(carrier.organizationId),
            [
              {
                type: 'InvoiceNumberReserved',
                data: {
                  carrierOrganizationId: carrier.organizationId,
                  invoiceId,
                  number: invoiceNumber(number),
                  reservedAt: iso(draftedAt),
                },
              },
            ],
            {
              expectedRevision: number === 1 ? 'no_stream' : number - 2,
              metadata: {
                userId: null,
                organizationId: carrier.organizationId,
                correlationId: loadId,
                causationId: null,
                at: iso(draftedAt),
              },
            },
          )
        ).position,
      );
      // One append per step, as each command writes its own; the recorded time is the step's.
      for (const [revision, step] of events.entries()) {
        const result = await platform.store.append(invoiceStream(invoiceId), [step.event], {
          expectedRevision: revision === 0 ? 'no_stream' : revision - 1,
          metadata: {
            userId: step.userId,
            organizationId:
              step.userId === habit.shipper.caller.actor.userId
                ? habit.shipper.organizationId
                : carrier.organizationId,
            correlationId: loadId,
            causationId: null,
            at: iso(step.at),
          },
        });
        last = latest(last, result.position);
      }
    }
  }
  return last;
}
