/**
 * Reading and writing X12 interchanges through node-x12 (its parser and generator): the envelope we
 * put around what we send (our ISA and GS ids, the partner's separators, one control number for the
 * interchange, the group and the set), and a plain view of a parsed segment.
 */
import { X12Interchange, X12Parser, type X12Segment } from 'node-x12';
import type { EdiSeparators } from '../../domain/contracts/edi.contract.ts';

/** A segment as the mappings read it: its tag, its elements (1-based through `el`) and its position in the set (ST is 1). */
export type Segment = {
  tag: string;
  values: string[];
  /** Position in the transaction set, counting ST as 1; null outside a set (ISA, GS, GE, IEA). */
  position: number | null;
  el(n: number): string;
};

export const segmentOf = (segment: X12Segment, position: number | null): Segment => {
  const values = segment.elements.map((element) => element.value ?? '');
  return { tag: segment.tag, values, position, el: (n) => (values[n - 1] ?? '').trim() };
};

/** Parses an interchange without node-x12's strict checks: the envelope checks are ours, per group and set. */
export const parseInterchange = (raw: string) => new X12Parser(false).parse(raw);

/** Parses an interchange with node-x12's strict checks (control numbers and counts): for what we wrote. */
export const parseStrict = (raw: string) => new X12Parser(true).parse(raw) as X12Interchange;

export type OutgoingTransaction = { type: string; segments: [string, string[]][] };

const pad = (value: string, length: number) => value.padEnd(length, ' ').slice(0, length);
const digits = (value: number | string, length: number) => String(value).padStart(length, '0');

/** The date and time of an envelope, in UTC: CCYYMMDD and HHMM. */
export const x12DateTime = (at: Date) => {
  const iso = at.toISOString();
  return { date: iso.slice(0, 10).replaceAll('-', ''), time: iso.slice(11, 16).replace(':', '') };
};

/** X12 text may not hold its own separators: they become spaces. */
export const clean = (text: string | null | undefined, separators: EdiSeparators, max = 60) =>
  (text ?? '')
    .replaceAll(separators.element, ' ')
    .replaceAll(separators.segment, ' ')
    .replaceAll(separators.subElement, ' ')
    .replace(/[\r\n]+/g, ' ')
    .trim()
    .slice(0, max);

/**
 * One interchange of one functional group: our ISA (qualifier ZZ) and GS ids as the sender, the
 * partner's as the receiver; the control number serves ISA13 and GS06, the sets are numbered 0001 on.
 */
export function writeInterchange(options: {
  ourId: string;
  partner: { isaQualifier: string; isaId: string; gsId: string };
  separators: EdiSeparators;
  functionalId: string;
  controlNumber: number;
  at: Date;
  transactions: OutgoingTransaction[];
}): string {
  const { separators, at } = options;
  const { date, time } = x12DateTime(at);
  const interchange = new X12Interchange({
    elementDelimiter: separators.element,
    segmentTerminator: separators.segment,
    subElementDelimiter: separators.subElement,
  });
  interchange.setHeader([
    '00',
    pad('', 10),
    '00',
    pad('', 10),
    'ZZ',
    pad(options.ourId, 15),
    options.partner.isaQualifier,
    pad(options.partner.isaId, 15),
    date.slice(2),
    time,
    'U',
    '00401',
    digits(options.controlNumber, 9),
    '0',
    'P',
    separators.subElement,
  ]);
  const group = interchange.addFunctionalGroup();
  group.setHeader([
    options.functionalId,
    options.ourId,
    options.partner.gsId,
    date,
    time,
    String(options.controlNumber),
    'X',
    '004010',
  ]);
  options.transactions.forEach((transaction, index) => {
    const set = group.addTransaction();
    set.setHeader([transaction.type, digits(index + 1, 4)]);
    for (const [tag, elements] of transaction.segments) set.addSegment(tag, elements);
  });
  return interchange.toString();
}
