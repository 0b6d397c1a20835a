/**
 * The 997 functional acknowledgment of one functional group: AK1 (the group), per set AK2 with, when
 * rejected, AK3 (the segment: tag, position, code) and AK4 (the element: position, code, the value
 * sent) and AK5 (A or R with its code), then AK9 (A, P or R, the counts, the group's codes).
 */
import type { EdiError } from '../../domain/contracts/edi.contract.ts';
import type { OutgoingTransaction } from './x12.ts';

export type AckedSet = { controlNumber: string; type: string; errors: EdiError[] };

const GROUP = new Set(['GS', 'GE']);
const SET_TRAILER = new Set(['ST', 'SE']);

export function ack997(options: {
  functionalId: string;
  groupControlNumber: string;
  /** GE01 as sent. */
  claimedSets: number;
  sets: AckedSet[];
  /** Errors of the interchange or the group: every set is rejected with them. */
  groupErrors: EdiError[];
  sample?: (error: EdiError) => string;
}): OutgoingTransaction {
  const segments: [string, string[]][] = [
    ['AK1', [options.functionalId || 'SM', options.groupControlNumber || '0']],
  ];
  const groupRejected = options.groupErrors.length > 0;
  let accepted = 0;
  for (const set of options.sets) {
    segments.push(['AK2', [set.type || '204', set.controlNumber || '0']]);
    const setCodes = new Set<string>();
    for (const error of set.errors) {
      if (SET_TRAILER.has(error.segment) && error.position === null) {
        setCodes.add(error.code);
        continue;
      }
      setCodes.add('5');
      if (error.element === null) {
        segments.push(['AK3', [error.segment, String(error.position ?? 0), '', error.code]]);
      } else {
        segments.push(['AK3', [error.segment, String(error.position ?? 0), '', '8']]);
        const value = options.sample?.(error) ?? '';
        segments.push([
          'AK4',
          value
            ? [String(error.element), '', error.code, value]
            : [String(error.element), '', error.code],
        ]);
      }
    }
    if (set.errors.length === 0 && !groupRejected) {
      accepted++;
      segments.push(['AK5', ['A']]);
    } else {
      segments.push(['AK5', ['R', ...[...setCodes].slice(0, 5)]]);
    }
  }
  // AK9's codes speak of the group (GS/GE), and of an unknown sender or receiver (14, 13).
  const groupCodes = [
    ...new Set(
      options.groupErrors
        .filter(
          (error) =>
            GROUP.has(error.segment) ||
            (error.segment === 'ISA' && (error.code === '13' || error.code === '14')),
        )
        .map((error) => error.code),
    ),
  ].slice(0, 5);
  const status =
    accepted === options.sets.length && !groupRejected && options.sets.length > 0
      ? 'A'
      : accepted > 0
        ? 'P'
        : 'R';
  segments.push([
    'AK9',
    [
      status,
      String(options.claimedSets),
      String(options.sets.length),
      String(accepted),
      ...groupCodes,
    ],
  ]);
  return { type: '997', segments };
}
