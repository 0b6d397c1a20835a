import { Role } from '../../domain/catalog.ts';
import {
  INVOICE_STATUSES,
  invoicesContract,
  InvoicesTableSchema,
} from '../../domain/contracts/invoices.contract.ts';
import { silenceDueAt } from '../../domain/invoices/invoice.decide.ts';
import type { InvoiceStatus } from '../../domain/invoices/invoice.types.ts';
import { TOUR_CHANGE_STATUS, TOURS_ALL } from '../../domain/permissions.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../../domain/shared/errors.ts';
import {
  INVOICES_ORDER,
  invoiceById,
  invoicesPage,
  type InvoiceScope,
} from '../../projections/invoices/invoices.queries.ts';
import type { LogPosition } from '../eventstore/eventStore.ts';
import { can, isSuperadmin, requireActor, type Actor } from '../http/auth.ts';
import type { App } from '../http/routeContext.ts';
import { activeFilters, orderOf, pageOf, TableQuery, tableAnswer } from '../http/table.ts';

const scopeOf = (actor: Actor): InvoiceScope | null =>
  isSuperadmin(actor)
    ? { side: 'all' }
    : !actor.organizationId
      ? null
      : actor.roleId === Role.Carrier
        ? { side: 'carrier', organizationId: actor.organizationId }
        : { side: 'shipper', organizationId: actor.organizationId };

/**
 * Carriers' invoices (docs/api.md "Invoices"): a carrier's receivables and a shipper's payables as a
 * table (a Superadmin sees all), one invoice for its parties and the Superadmin (others: 404), and
 * each side's steps: the carrier submits, answers a dispute and confirms the receipt; the shipper
 * approves, disputes lines, schedules and records the payment. Also the shipper's confirmation of
 * a tour's delivery, which drafts the invoice. Each answer is the invoice as the read model holds it
 * after the change.
 */
export async function invoiceRoutes(app: App) {
  const { runner, invoices, marketplace } = app.platform;
  const { db } = app.platform.database;

  const invoiceAfter = async (invoiceId: string, position: LogPosition | null) => {
    if (position) await runner.waitFor(['invoices'], position);
    const now = new Date().toISOString();
    const invoice = await invoiceById(db, invoiceId, now);
    if (!invoice) throw new NotFoundError('Invoice not found');
    const { awaitingSince, ...rest } = invoice;
    return {
      ...rest,
      silenceApprovesAt: awaitingSince ? silenceDueAt(awaitingSince) : null,
    };
  };

  const callerOf = (request: { id: string }, actor: Actor) => ({ actor, requestId: request.id });

  app.post(
    '/tours/:id/confirm-delivery',
    {
      schema: {
        tags: ['tours'],
        summary:
          "Confirm the delivery on the driver's proof of delivery (the shipper): the tour is Delivered and the carrier's invoice is drafted",
        ...invoicesContract.confirmDelivery,
      },
      onRequest: can(TOUR_CHANGE_STATUS),
    },
    async (request) => {
      const actor = requireActor(request);
      // The shipper's step: refused to the carrier's side before the tour is looked up.
      if (actor.roleId !== Role.Shipper && !isSuperadmin(actor))
        throw new ForbiddenError('Only the shipper confirms the delivery');
      const now = new Date().toISOString();
      const tourId = request.params.id;
      const confirmed = await marketplace.confirmDelivery(callerOf(request, actor), tourId, now);
      // The delivery stands confirmed whatever comes next: a draft that fails here is the
      // reactor's to make again (invoiceDrafts), and the answer says there is none yet.
      // The invoiceDrafts reactor hears the same confirmation and may draft first: the route's
      // draft then meets the stream it wrote (a conflict, tried once more) or finds the invoice made.
      const draft = () => invoices.draftForTour(tourId, callerOf(request, actor), now);
      const drafted = await draft()
        .catch(() => draft())
        .catch((error: unknown) => {
          request.log.warn({ err: error, tourId }, 'the invoice was not drafted at once');
          return null;
        });
      // Drafted elsewhere (position null): the answer waits for the log as it stands, which holds it.
      const position =
        drafted === null
          ? confirmed
          : (drafted.position ?? (await app.platform.store.committedHead()));
      if (position) await runner.waitFor(['invoices', 'marketplace'], position);
      return { tourId, invoiceId: drafted?.invoiceId ?? null };
    },
  );

  app.get(
    '/invoices',
    {
      schema: {
        tags: ['invoices'],
        summary:
          "The caller's invoices: a carrier's receivables, a shipper's payables, all for a Superadmin (table protocol; filter `status`, search by number, load or organization)",
        querystring: TableQuery,
        response: { 200: InvoicesTableSchema },
      },
      onRequest: can(TOURS_ALL),
    },
    async (request) => {
      const actor = requireActor(request);
      const query = request.query;
      const statuses = (activeFilters(query).get('status') ?? []).map(String);
      const unknown = statuses.find((status) => !INVOICE_STATUSES.includes(status as never));
      if (unknown !== undefined)
        throw ValidationError.field('filters', `status is one of ${INVOICE_STATUSES.join(', ')}`);
      const scope = scopeOf(actor);
      if (!scope) return tableAnswer(query, 0, [], []);
      const { total, rows } = await invoicesPage(
        db,
        scope,
        pageOf(query, orderOf(query, INVOICES_ORDER, 'i.drafted_at')),
        statuses as InvoiceStatus[],
        new Date().toISOString(),
      );
      return tableAnswer(query, total, rows, []);
    },
  );

  app.get(
    '/invoices/:id',
    {
      schema: {
        tags: ['invoices'],
        summary: 'One invoice with its lines, remit-to, terms and PDF (its parties, a Superadmin)',
        ...invoicesContract.get,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request) => {
      await invoices.visibleInvoice(requireActor(request), request.params.id);
      return invoiceAfter(request.params.id, null);
    },
  );

  app.post(
    '/invoices/:id/submit',
    {
      schema: {
        tags: ['invoices'],
        summary: 'Submit the draft (the carrier): its PDF is made and its SHA-256 recorded',
        ...invoicesContract.submit,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request) => {
      const actor = requireActor(request);
      const position = await invoices.submit(
        callerOf(request, actor),
        request.params.id,
        request.body.reference ?? null,
        new Date().toISOString(),
      );
      return invoiceAfter(request.params.id, position);
    },
  );

  app.post(
    '/invoices/:id/approve',
    {
      schema: {
        tags: ['invoices'],
        summary: 'Approve a submitted (or disputed) invoice (the shipper)',
        ...invoicesContract.approve,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request) => {
      const actor = requireActor(request);
      const position = await invoices.approve(
        callerOf(request, actor),
        request.params.id,
        new Date().toISOString(),
      );
      return invoiceAfter(request.params.id, position);
    },
  );

  app.post(
    '/invoices/:id/dispute',
    {
      schema: {
        tags: ['invoices'],
        summary: 'Dispute lines of a submitted invoice, each with a reason (the shipper)',
        ...invoicesContract.dispute,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request) => {
      const actor = requireActor(request);
      const position = await invoices.dispute(
        callerOf(request, actor),
        request.params.id,
        request.body.lines,
        new Date().toISOString(),
      );
      return invoiceAfter(request.params.id, position);
    },
  );

  app.post(
    '/invoices/:id/answer',
    {
      schema: {
        tags: ['invoices'],
        summary: 'Answer the dispute of an invoice (the carrier): it waits for the shipper again',
        ...invoicesContract.answer,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request) => {
      const actor = requireActor(request);
      const position = await invoices.answer(
        callerOf(request, actor),
        request.params.id,
        request.body.text,
        new Date().toISOString(),
      );
      return invoiceAfter(request.params.id, position);
    },
  );

  app.post(
    '/invoices/:id/schedule',
    {
      schema: {
        tags: ['invoices'],
        summary: 'Schedule the payment of an approved invoice on a date (the shipper)',
        ...invoicesContract.schedule,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request) => {
      const actor = requireActor(request);
      const position = await invoices.schedule(
        callerOf(request, actor),
        request.params.id,
        request.body.date,
        new Date().toISOString(),
      );
      return invoiceAfter(request.params.id, position);
    },
  );

  app.post(
    '/invoices/:id/pay',
    {
      schema: {
        tags: ['invoices'],
        summary: 'Record the payment of an approved or scheduled invoice (the shipper)',
        ...invoicesContract.pay,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request) => {
      const actor = requireActor(request);
      const position = await invoices.pay(
        callerOf(request, actor),
        request.params.id,
        { reference: request.body.reference, paidAt: request.body.paidAt },
        new Date().toISOString(),
      );
      return invoiceAfter(request.params.id, position);
    },
  );

  app.post(
    '/invoices/:id/receipt',
    {
      schema: {
        tags: ['invoices'],
        summary:
          'Confirm the payment arrived, or say it did not (the carrier; not received reopens the invoice)',
        ...invoicesContract.receipt,
      },
      onRequest: can(TOURS_ALL),
    },
    async (request) => {
      const actor = requireActor(request);
      const position = await invoices.receipt(
        callerOf(request, actor),
        request.params.id,
        request.body.received,
        new Date().toISOString(),
      );
      return invoiceAfter(request.params.id, position);
    },
  );
}
