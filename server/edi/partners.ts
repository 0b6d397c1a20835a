/**
 * A shipper's EDI trading partners: created by its manager (the API key shown once and kept as its
 * SHA-256; for a URL partner, a signing secret sealed like a webhook's), listed, found by API key.
 * Where our documents go is checked like a webhook's address (https; private addresses only with
 * WEBHOOK_ALLOW_PRIVATE=1).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import {
  DEFAULT_EDI_SEPARATORS,
  EDI_PARTNER_LIMIT_MESSAGE,
  MAX_EDI_PARTNERS,
  type EdiPartner,
  type EdiPartnerBodySchema,
  type EdiPartnerCreated,
  type EdiSeparators,
} from '../../domain/contracts/edi.contract.ts';
import { ConflictError, ForbiddenError, ValidationError } from '../../domain/shared/errors.ts';
import type { EdiPartnersTable } from '../../storage/serverTables.ts';
import type { DB } from '../../storage/schema.ts';
import type { SecretBox } from '../cluster/secretBox.ts';
import { resolveWebhookTarget, WebhookAddressError, type Resolver } from '../webhooks/addresses.ts';
import { newWebhookSecret } from '../webhooks/signature.ts';
import type { z } from 'zod';

export type PartnerRow = Selectable<EdiPartnersTable>;

/** The key a partner sends: `edi_` and 32 random bytes, base64url (fits a Bearer header). */
const newApiKey = () => `edi_${randomBytes(32).toString('base64url')}`;
export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');

export const separatorsOf = (row: PartnerRow): EdiSeparators => ({
  element: row.element_separator,
  segment: row.segment_terminator,
  subElement: row.sub_element_separator,
});

export const partnerOf = (row: PartnerRow): EdiPartner => ({
  id: row.id,
  name: row.name,
  isaQualifier: row.isa_qualifier,
  isaId: row.isa_id,
  gsId: row.gs_id,
  separators: separatorsOf(row),
  deliver: row.deliver_url ? { url: row.deliver_url } : { mailbox: true },
  createdAt: new Date(row.created_at).toISOString(),
});

export function createPartners(deps: {
  db: Kysely<DB>;
  secrets: SecretBox;
  allowPrivate: boolean;
  clock: () => Date;
  resolver?: Resolver;
}) {
  const { db, secrets, clock } = deps;

  async function list(organizationId: string): Promise<EdiPartner[]> {
    const rows = await db
      .selectFrom('edi_partners')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(partnerOf);
  }

  const countOf = async (trx: Kysely<DB>, organizationId: string) => {
    const { count } = await trx
      .selectFrom('edi_partners')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Number(count);
  };

  async function create(
    actor: { organizationId: string | null; userId: string },
    body: z.output<typeof EdiPartnerBodySchema>,
  ): Promise<EdiPartnerCreated> {
    const organizationId = actor.organizationId;
    if (!organizationId)
      throw new ForbiddenError('Only members of an organization have EDI partners');
    if ((await countOf(db, organizationId)) >= MAX_EDI_PARTNERS)
      throw new ConflictError(EDI_PARTNER_LIMIT_MESSAGE);
    const url = 'url' in body.deliver ? body.deliver.url : null;
    if (url) {
      try {
        await resolveWebhookTarget(url, deps.allowPrivate, deps.resolver);
      } catch (error) {
        if (error instanceof WebhookAddressError)
          throw ValidationError.field('deliver.url', error.message);
        throw error;
      }
    }
    const separators = body.separators ?? DEFAULT_EDI_SEPARATORS;
    const id = randomUUID();
    const apiKey = newApiKey();
    const signingSecret = url ? newWebhookSecret() : null;
    await db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`edi-partners:${organizationId}`}))`.execute(
        trx,
      );
      if ((await countOf(trx, organizationId)) >= MAX_EDI_PARTNERS)
        throw new ConflictError(EDI_PARTNER_LIMIT_MESSAGE);
      await trx
        .insertInto('edi_partners')
        .values({
          id,
          organization_id: organizationId,
          name: body.name,
          isa_qualifier: body.isaQualifier,
          isa_id: body.isaId,
          gs_id: body.gsId,
          element_separator: separators.element,
          segment_terminator: separators.segment,
          sub_element_separator: separators.subElement,
          deliver_url: url,
          signing_secret_sealed: signingSecret
            ? secrets.seal(signingSecret, `edi-partner:${id}`)
            : null,
          api_key_hash: hashApiKey(apiKey),
          created_by: actor.userId,
          created_at: clock(),
        })
        .execute();
    });
    return { id, apiKey, signingSecret };
  }

  /** The partner whose key this is, or null. */
  async function byApiKey(apiKey: string | null): Promise<PartnerRow | null> {
    if (!apiKey) return null;
    return (
      (await db
        .selectFrom('edi_partners')
        .selectAll()
        .where('api_key_hash', '=', hashApiKey(apiKey))
        .executeTakeFirst()) ?? null
    );
  }

  async function byId(id: string): Promise<PartnerRow | null> {
    return (
      (await db.selectFrom('edi_partners').selectAll().where('id', '=', id).executeTakeFirst()) ??
      null
    );
  }

  /** The next control number of a document to this partner (ISA13 and GS06). */
  async function nextControlNumber(trx: Kysely<DB>, partnerId: string): Promise<number> {
    const row = await trx
      .updateTable('edi_partners')
      .set({ control_number: sql<string>`control_number + 1` })
      .where('id', '=', partnerId)
      .returning('control_number')
      .executeTakeFirstOrThrow();
    // ISA13 holds nine digits: after 999 999 999 the numbers start again at 1.
    return ((Number(row.control_number) - 1) % 999_999_999) + 1;
  }

  const signingSecretOf = (row: PartnerRow): string | null =>
    row.signing_secret_sealed
      ? secrets.open(row.signing_secret_sealed, `edi-partner:${row.id}`)
      : null;

  return { list, create, byApiKey, byId, nextControlNumber, signingSecretOf };
}
export type Partners = ReturnType<typeof createPartners>;
