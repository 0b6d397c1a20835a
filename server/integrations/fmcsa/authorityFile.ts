/**
 * FMCSA's carrier files, as the Superadmin downloads them, read into `carrier_authority` (one row per
 * DOT number). Two shapes are understood, told apart by their header row:
 *
 * - the Licensing & Insurance carrier file (authority): `DOT_NUMBER`, `DOCKET_NUMBER` (`MC123456`),
 *   `LEGAL_NAME`, `COMMON_STAT` and `CONTRACT_STAT` (A active, I inactive, N none), `BIPD_FILE`
 *   (the bodily injury and property damage coverage on file, in thousands of dollars; 0 or empty:
 *   none), and where present `DISP_ACTION_DESC` (`REVOKED` marks a revoked authority);
 * - the Company Census file: `DOT_NUMBER`, `LEGAL_NAME`, `DOCKET1PREFIX` and `DOCKET1` (the MC
 *   number when the prefix is MC), `STATUS_CODE` (A active, I inactive) and, where present,
 *   `INSURANCE_ON_FILE` (Y or N; the census itself carries no insurance: then none).
 *
 * Every other column is ignored. The file is parsed as it streams in (csv-parse), never held whole.
 */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { AuthorityStatus } from '../../../domain/organizations/organization.ts';
import { ValidationError } from '../../../domain/shared/errors.ts';

export type AuthorityRow = {
  dotNumber: number;
  mcNumber: number | null;
  legalName: string;
  status: Exclude<AuthorityStatus, 'unknown'>;
  insuranceOnFile: boolean;
};

/** The largest file accepted (FMCSA's full L&I carrier file is some 300 MB; a state's extract far less). */
export const AUTHORITY_FILE_MAX_BYTES = 512 * 1024 * 1024;

const problem = (message: string) => ValidationError.field('file', message);

const positiveInteger = (text: string | undefined): number | null => {
  const digits = (text ?? '').trim().replace(/^MC-?/i, '');
  if (!/^\d{1,12}$/.test(digits)) return null;
  const value = Number(digits);
  return value > 0 ? value : null;
};

const authorityStatus = (
  common: string,
  contract: string,
  action: string,
): AuthorityRow['status'] => {
  if (/REVOK/i.test(action)) return 'revoked';
  if (common === 'A' || contract === 'A') return 'active';
  return 'inactive';
};

/** The rows of one file, in pages of `pageSize`, each handed to `onPage` before more is read. */
export async function readAuthorityFile(
  input: Readable,
  onPage: (rows: AuthorityRow[]) => Promise<void>,
  pageSize = 500,
): Promise<number> {
  const parser = parse({
    columns: (header: string[]) => header.map((name) => name.trim().toUpperCase()),
    bom: true,
    skip_empty_lines: true,
    trim: true,
    relax_column_count: true,
  });
  // An error of the upload (cut off, too large) ends the parse with it, and the import with it.
  input.on('error', (error) => parser.destroy(error));
  input.pipe(parser);
  let page: AuthorityRow[] = [];
  let count = 0;
  let kind: 'authority' | 'census' | null = null;
  try {
    for await (const record of parser as AsyncIterable<Record<string, string>>) {
      const line = count + 2;
      if (!kind) {
        if (!('DOT_NUMBER' in record)) throw problem('The file has no DOT_NUMBER column');
        kind = 'DOCKET_NUMBER' in record || 'COMMON_STAT' in record ? 'authority' : 'census';
        if (kind === 'census' && !('STATUS_CODE' in record))
          throw problem(
            'The file has neither COMMON_STAT (authority file) nor STATUS_CODE (census file)',
          );
      }
      const dotNumber = positiveInteger(record.DOT_NUMBER);
      if (dotNumber === null) throw problem(`Line ${line}: DOT_NUMBER is not a number`);
      const legalName = (record.LEGAL_NAME ?? '').slice(0, 200);
      let row: AuthorityRow;
      if (kind === 'authority') {
        row = {
          dotNumber,
          mcNumber: positiveInteger(record.DOCKET_NUMBER),
          legalName,
          status: authorityStatus(
            (record.COMMON_STAT ?? '').toUpperCase(),
            (record.CONTRACT_STAT ?? '').toUpperCase(),
            record.DISP_ACTION_DESC ?? '',
          ),
          insuranceOnFile: Number(record.BIPD_FILE || 0) > 0,
        };
      } else {
        const status = (record.STATUS_CODE ?? '').toUpperCase();
        if (status !== 'A' && status !== 'I')
          throw problem(`Line ${line}: STATUS_CODE must be A or I`);
        row = {
          dotNumber,
          mcNumber:
            (record.DOCKET1PREFIX ?? '').toUpperCase() === 'MC'
              ? positiveInteger(record.DOCKET1)
              : null,
          legalName,
          status: status === 'A' ? 'active' : 'inactive',
          insuranceOnFile: (record.INSURANCE_ON_FILE ?? '').toUpperCase() === 'Y',
        };
      }
      page.push(row);
      count++;
      if (page.length >= pageSize) {
        await onPage(page);
        page = [];
      }
    }
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('CSV_'))
      throw problem(`The file is not a readable CSV: ${(error as Error).message}`);
    throw error;
  }
  if (page.length > 0) await onPage(page);
  if (count === 0) throw problem('The file has no rows');
  return count;
}
