/**
 * A carrier's operating authority (docs/architecture.md "Outside services"): with `FMCSA_WEBKEY`,
 * FMCSA's QCMobile API is asked (`qcmobile.ts`); without it, or when QCMobile cannot answer, the
 * Superadmin's last import of FMCSA's carrier file (`carrier_authority`). No other network.
 */
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { CarrierAuthority } from '../../../domain/organizations/organization.ts';
import type { DB } from '../../../storage/schema.ts';
import { readAuthorityFile } from './authorityFile.ts';
import { qcmobileAuthority } from './qcmobile.ts';

export type AuthorityChecker = {
  /** The authority of a DOT number now; `unknown` when neither source knows it. */
  check(dotNumber: number | null, mcNumber: number | null, now: string): Promise<CarrierAuthority>;
  /** Replaces the imported table with the file's rows in one transaction; a bad file changes nothing. */
  importFile(file: Readable, now: string): Promise<number>;
};

export function createAuthorityChecker(deps: {
  db: Kysely<DB>;
  logger: Pick<Logger, 'warn'>;
  /** FMCSA_WEBKEY; null reads the imported table only. */
  webKey: string | null;
  /** FMCSA_BASE_URL, `https://mobile.fmcsa.dot.gov/qc/services`. */
  baseUrl: string;
}): AuthorityChecker {
  const { db, logger } = deps;

  const fromImport = async (
    dotNumber: number,
    mcNumber: number | null,
    now: string,
  ): Promise<CarrierAuthority> => {
    const row = await db
      .selectFrom('carrier_authority')
      .selectAll()
      .where('dot_number', '=', String(dotNumber))
      .executeTakeFirst();
    if (!row)
      return {
        dotNumber,
        mcNumber,
        status: 'unknown',
        insuranceOnFile: false,
        source: 'import',
        checkedAt: now,
      };
    return {
      dotNumber,
      mcNumber: row.mc_number === null ? mcNumber : Number(row.mc_number),
      status: row.status as CarrierAuthority['status'],
      insuranceOnFile: row.insurance_on_file,
      source: 'import',
      checkedAt: now,
    };
  };

  return {
    async check(dotNumber, mcNumber, now) {
      if (dotNumber === null)
        return {
          dotNumber,
          mcNumber,
          status: 'unknown',
          insuranceOnFile: false,
          source: 'import',
          checkedAt: now,
        };
      if (deps.webKey) {
        try {
          return await qcmobileAuthority(deps.baseUrl, deps.webKey, dotNumber, mcNumber, now);
        } catch (error) {
          logger.warn(
            { err: error, dotNumber },
            'QCMobile did not answer: the imported file is read',
          );
        }
      }
      return fromImport(dotNumber, mcNumber, now);
    },

    async importFile(file, now) {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom('carrier_authority').execute();
        return readAuthorityFile(file, async (rows) => {
          // A DOT number twice in one file: its last line stands.
          const byDot = new Map(rows.map((row) => [row.dotNumber, row]));
          await trx
            .insertInto('carrier_authority')
            .values(
              [...byDot.values()].map((row) => ({
                dot_number: row.dotNumber,
                mc_number: row.mcNumber,
                legal_name: row.legalName,
                status: row.status,
                insurance_on_file: row.insuranceOnFile,
                as_of: now,
              })),
            )
            .onConflict((oc) =>
              oc.column('dot_number').doUpdateSet((eb) => ({
                mc_number: eb.ref('excluded.mc_number'),
                legal_name: eb.ref('excluded.legal_name'),
                status: eb.ref('excluded.status'),
                insurance_on_file: eb.ref('excluded.insurance_on_file'),
              })),
            )
            .execute();
        });
      });
    },
  };
}
