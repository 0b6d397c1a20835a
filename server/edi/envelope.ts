/**
 * The envelope of an interchange a partner sends: parsed by node-x12, then checked here so that each
 * error lands where X12 reports it: the interchange (ISA/IEA: the partner's and our ids, IEA01 and
 * IEA02), a functional group (GS/GE: ids, GE01, GE02) or one transaction set (ST/SE: SE01, SE02). A
 * failing set is rejected alone; a failing group or interchange rejects what it holds.
 */
import type { X12Interchange } from 'node-x12';
import type { EdiError, EdiSeparators } from '../../domain/contracts/edi.contract.ts';
import { parseInterchange, segmentOf, type Segment } from './x12.ts';

export type InboundSet = {
  type: string;
  controlNumber: string;
  /** The segments between ST and SE, each with its position in the set. */
  segments: Segment[];
  errors: EdiError[];
};

export type InboundGroup = {
  functionalId: string;
  controlNumber: string;
  sets: InboundSet[];
  /** GE01 as sent (the count of sets it claims). */
  claimedSets: number;
  errors: EdiError[];
};

export type InboundInterchange = {
  controlNumber: string | null;
  separators: EdiSeparators | null;
  groups: InboundGroup[];
  errors: EdiError[];
};

export type PartnerIds = { isaQualifier: string; isaId: string; gsId: string };

export const envelopeError = (
  segment: string,
  element: number | null,
  code: string,
  reason: string,
): EdiError => ({ segment, position: null, element, code, reason });

const same = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();
const sameNumber = (a: string, b: string) =>
  /^\d+$/.test(a.trim()) && /^\d+$/.test(b.trim()) ? Number(a) === Number(b) : same(a, b);
const value = (segment: { elements: { value: string }[] } | undefined, n: number) =>
  (segment?.elements[n - 1]?.value ?? '').trim();

/** The separators the ISA segment declares: the 4th character, the 106th and the one after ISA16. */
const separatorsOf = (raw: string): EdiSeparators | null => {
  const text = raw.replace(/^\s+/, '');
  if (!text.startsWith('ISA') || text.length < 106) return null;
  return { element: text[3]!, subElement: text[104]!, segment: text[105]! };
};

/**
 * Reads and checks an interchange from `partner` to us (`ourId`, qualifier ZZ). Never throws: what
 * cannot be read is an interchange error.
 */
export function readInbound(raw: string, partner: PartnerIds, ourId: string): InboundInterchange {
  const separators = separatorsOf(raw);
  let parsed: X12Interchange;
  try {
    const result = parseInterchange(raw);
    if (Array.isArray(result) || !('functionalGroups' in result)) {
      return {
        controlNumber: null,
        separators,
        groups: [],
        errors: [envelopeError('ISA', null, '1', 'Send one interchange per request')],
      };
    }
    parsed = result as X12Interchange;
  } catch (error) {
    return {
      controlNumber: null,
      separators,
      groups: [],
      errors: [
        envelopeError(
          'ISA',
          null,
          '1',
          `The interchange could not be read: ${(error as Error).message}`,
        ),
      ],
    };
  }
  const isa = parsed.header;
  const iea = parsed.trailer;
  const controlNumber = value(isa, 13).padStart(9, '0');
  const errors: EdiError[] = [];
  if (!same(value(isa, 5), partner.isaQualifier) || !same(value(isa, 6), partner.isaId))
    errors.push(
      envelopeError(
        'ISA',
        6,
        '14',
        `The sender ${value(isa, 5)}/${value(isa, 6)} (ISA05/ISA06) is not this partner's ${partner.isaQualifier}/${partner.isaId}`,
      ),
    );
  if (!same(value(isa, 7), 'ZZ') || !same(value(isa, 8), ourId))
    errors.push(
      envelopeError(
        'ISA',
        8,
        '13',
        `The receiver ${value(isa, 7)}/${value(isa, 8)} (ISA07/ISA08) is not ZZ/${ourId}`,
      ),
    );
  if (iea?.tag !== 'IEA') {
    errors.push(envelopeError('IEA', null, '3', 'The interchange has no IEA trailer'));
  } else {
    if (!sameNumber(value(iea, 2), value(isa, 13)))
      errors.push(
        envelopeError(
          'IEA',
          2,
          '4',
          `IEA02 (${value(iea, 2)}) does not match ISA13 (${value(isa, 13)})`,
        ),
      );
    if (!sameNumber(value(iea, 1), String(parsed.functionalGroups.length)))
      errors.push(
        envelopeError(
          'IEA',
          1,
          '5',
          `IEA01 (${value(iea, 1)}) does not match the ${parsed.functionalGroups.length} functional groups sent`,
        ),
      );
  }

  const groups = parsed.functionalGroups.map((group): InboundGroup => {
    const gs = group.header;
    const ge = group.trailer;
    const groupErrors: EdiError[] = [];
    if (value(gs, 1) !== 'SM')
      groupErrors.push(
        envelopeError(
          'GS',
          1,
          '1',
          `Functional group ${value(gs, 1)} is not supported: send load tenders (SM)`,
        ),
      );
    if (!same(value(gs, 2), partner.gsId))
      groupErrors.push(
        envelopeError(
          'GS',
          2,
          '14',
          `The sender ${value(gs, 2)} (GS02) is not this partner's ${partner.gsId}`,
        ),
      );
    if (!same(value(gs, 3), ourId))
      groupErrors.push(
        envelopeError('GS', 3, '13', `The receiver ${value(gs, 3)} (GS03) is not ${ourId}`),
      );
    if (ge?.tag !== 'GE') {
      groupErrors.push(envelopeError('GE', null, '3', 'The functional group has no GE trailer'));
    } else {
      if (!sameNumber(value(ge, 2), value(gs, 6)))
        groupErrors.push(
          envelopeError(
            'GE',
            2,
            '4',
            `GE02 (${value(ge, 2)}) does not match GS06 (${value(gs, 6)})`,
          ),
        );
      if (!sameNumber(value(ge, 1), String(group.transactions.length)))
        groupErrors.push(
          envelopeError(
            'GE',
            1,
            '5',
            `GE01 (${value(ge, 1)}) does not match the ${group.transactions.length} transaction sets sent`,
          ),
        );
    }
    const sets = group.transactions.map((transaction): InboundSet => {
      const st = transaction.header;
      const se = transaction.trailer;
      const setErrors: EdiError[] = [];
      const segments = transaction.segments.map((segment, index) => segmentOf(segment, index + 2));
      if (value(st, 1) !== '204')
        setErrors.push(
          envelopeError('ST', 1, '1', `Transaction set ${value(st, 1)} is not supported: send 204`),
        );
      if (se?.tag !== 'SE') {
        setErrors.push(envelopeError('SE', null, '2', 'The transaction set has no SE trailer'));
      } else {
        if (!sameNumber(value(se, 2), value(st, 2)))
          setErrors.push(
            envelopeError(
              'SE',
              2,
              '3',
              `SE02 (${value(se, 2)}) does not match ST02 (${value(st, 2)})`,
            ),
          );
        if (!sameNumber(value(se, 1), String(segments.length + 2)))
          setErrors.push(
            envelopeError(
              'SE',
              1,
              '4',
              `SE01 (${value(se, 1)}) does not match the ${segments.length + 2} segments of the set`,
            ),
          );
      }
      return { type: value(st, 1), controlNumber: value(st, 2), segments, errors: setErrors };
    });
    return {
      functionalId: value(gs, 1),
      controlNumber: value(gs, 6),
      sets,
      claimedSets: Number(value(ge, 1)) || 0,
      errors: groupErrors,
    };
  });
  if (groups.length === 0)
    errors.push(envelopeError('GS', null, '3', 'The interchange holds no functional group'));
  return { controlNumber, separators, groups, errors };
}
