import {
  AgingQuerySchema,
  PayerParamsSchema,
  PayerQuerySchema,
  payersAnswers,
} from '../../domain/contracts/payers.contract.ts';
import { LOADS_CARRIER, LOADS_SHIPPER } from '../../domain/permissions.ts';
import { ForbiddenError, NotFoundError } from '../../domain/shared/errors.ts';
import { agingOf, payerFiguresOf } from '../../projections/payerFigures/payerFigures.queries.ts';
import { can, requireActor } from '../http/auth.ts';
import type { App } from '../http/routeContext.ts';
import { contentDisposition } from '../integrations/files/uploads.ts';

const NO_ORGANIZATION = 'Aging is of a carrier or shipper organization';

/**
 * Days-to-pay and aging (`payerFigures` read model, docs/api.md "Days-to-pay and aging"): a
 * shipper's payment figures, readable by every Active user as carriers weigh them before an offer;
 * and the aging of the caller's own organization's open invoices (a carrier's receivables, a
 * shipper's payables), as JSON or CSV.
 */
export async function payersRoutes(app: App) {
  const { db } = app.platform.database;

  app.get(
    '/insights/payers/:organizationId',
    {
      schema: {
        tags: ['insights'],
        summary:
          "How a shipper pays its carriers' invoices over the last 90 or 365 days: median and 90th percentile days from submission to payment, share paid within terms, overdue amount ('new' under 3 paid invoices)",
        params: PayerParamsSchema,
        querystring: PayerQuerySchema,
        response: payersAnswers.payer,
      },
      onRequest: can(),
    },
    async (request) => {
      const { organizationId } = request.params;
      const organization = await db
        .selectFrom('organizations_view')
        .select(['type'])
        .where('id', '=', organizationId)
        .executeTakeFirst();
      if (organization?.type !== 'Shipper') throw new NotFoundError('Shipper not found');
      return payerFiguresOf(db, organizationId, request.query.window, new Date());
    },
  );

  app.get(
    '/insights/aging',
    {
      schema: {
        tags: ['insights'],
        summary:
          "The aging of the caller's organization's open invoices: a carrier's receivables or a shipper's payables, by days past due (?format=csv downloads it)",
        querystring: AgingQuerySchema,
        response: payersAnswers.aging,
      },
      onRequest: can(LOADS_SHIPPER, LOADS_CARRIER),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      if (!actor.organizationId) throw new ForbiddenError(NO_ORGANIZATION);
      const organization = await db
        .selectFrom('organizations_view')
        .select(['type'])
        .where('id', '=', actor.organizationId)
        .executeTakeFirst();
      if (organization?.type !== 'Carrier' && organization?.type !== 'Shipper')
        throw new ForbiddenError(NO_ORGANIZATION);
      const side: 'receivable' | 'payable' =
        organization.type === 'Carrier' ? 'receivable' : 'payable';
      const now = new Date();
      const buckets = await agingOf(db, actor.organizationId, side, now);
      if (request.query.format === 'csv') {
        const lines = [
          'label,count,amount',
          ...buckets.map((bucket) => `${bucket.label},${bucket.count},${bucket.amount.toFixed(2)}`),
        ];
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            contentDisposition(`aging-${side}-${now.toISOString().slice(0, 10)}.csv`),
          )
          .header('cache-control', 'private, no-store')
          .send(`${lines.join('\r\n')}\r\n`);
      }
      return { buckets, side };
    },
  );
}
