import {
  EDI_DOCUMENT_STATUSES,
  EDI_DOCUMENT_TYPES,
  EdiIdParamsSchema as IdParams,
  EdiInboundBodySchema,
  EdiMailboxAckBodySchema,
  EdiPartnerBodySchema,
  ediAnswers,
} from '../../domain/contracts/edi.contract.ts';
import { LOAD_IMPORT } from '../../domain/permissions.ts';
import { ForbiddenError, UnauthorizedError, ValidationError } from '../../domain/shared/errors.ts';
import type { FastifyRequest } from 'fastify';
import { can, requireActor } from '../http/auth.ts';
import type { App } from '../http/routeContext.ts';
import { activeFilters, TableQuery, tableAnswer } from '../http/table.ts';
import type { PartnerRow } from '../edi/partners.ts';

/** An interchange is at most this large (about 2 000 tenders). */
const INBOUND_LIMIT_BYTES = 5 * 1024 * 1024;
const NO_ORGANIZATION = 'Only members of a shipper organization have EDI partners';

/**
 * EDI (docs/api.md "EDI"): the partners and documents of the caller's shipper organization, for its
 * users who import loads (its managers); and, with a partner's API key instead of a sign-in, the
 * interchanges it sends and its mailbox. Another organization's document answers 404.
 */
export async function ediRoutes(app: App) {
  const { edi } = app.platform;

  app.addContentTypeParser(
    ['application/edi-x12', 'application/edi'],
    { parseAs: 'string', bodyLimit: INBOUND_LIMIT_BYTES },
    (_request, body, done) => done(null, body),
  );

  /** The organization of a signed-in manager (a Superadmin has none: 403). */
  const organizationOf = (request: FastifyRequest): string => {
    const organizationId = requireActor(request).organizationId;
    if (!organizationId) throw new ForbiddenError(NO_ORGANIZATION);
    return organizationId;
  };
  const ownOrganization = async (request: FastifyRequest) => {
    organizationOf(request);
  };

  /** The partner whose API key the request carries, checked before the body is read; 401 otherwise. */
  const partnerOfRequest = new WeakMap<FastifyRequest, PartnerRow>();
  const partnerKey = async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const key = /^Bearer (\S+)$/.exec(header)?.[1] ?? null;
    const partner = await edi.partners.byApiKey(key);
    if (!partner) throw new UnauthorizedError('Send the partner API key as Authorization: Bearer');
    partnerOfRequest.set(request, partner);
  };
  const partnerOf = (request: FastifyRequest): PartnerRow => {
    const partner = partnerOfRequest.get(request);
    if (!partner) throw new UnauthorizedError('Send the partner API key as Authorization: Bearer');
    return partner;
  };

  app.get(
    '/edi/partners',
    {
      schema: {
        tags: ['edi'],
        summary: "The shipper's EDI trading partners",
        response: ediAnswers.partners,
      },
      onRequest: [can(LOAD_IMPORT), ownOrganization],
    },
    async (request) => edi.partners.list(organizationOf(request)),
  );

  app.post(
    '/edi/partners',
    {
      schema: {
        tags: ['edi'],
        summary:
          'Register a trading partner: {name, isaQualifier, isaId, gsId, separators?, deliver: {url} or {mailbox: true}}; answers its API key (and, for a URL, its signing secret), only here',
        body: EdiPartnerBodySchema,
        response: ediAnswers.createPartner,
      },
      onRequest: [can(LOAD_IMPORT), ownOrganization],
    },
    async (request, reply) => {
      const actor = requireActor(request);
      return reply.code(201).send(await edi.partners.create(actor, request.body));
    },
  );

  app.post(
    '/edi/inbound',
    {
      schema: {
        tags: ['edi'],
        summary:
          'An interchange of 204 load tenders from a partner (Authorization: Bearer <apiKey>; application/edi-x12 or text/plain): each set posted, changed or canceled, or rejected alone; a 997 per functional group goes back to the partner',
        consumes: ['application/edi-x12', 'text/plain'],
        body: EdiInboundBodySchema,
        response: ediAnswers.inbound,
      },
      config: { public: true, rateLimit: { max: 600, timeWindow: '1 minute' } },
      onRequest: partnerKey,
    },
    async (request, reply) => {
      const partner = partnerOf(request);
      const { answer, position } = await edi.inbound.receive(partner, request.body, request.id);
      app.consistency.wrote(request, reply, position);
      return reply.code(202).send(answer);
    },
  );

  app.get(
    '/edi/documents',
    {
      schema: {
        tags: ['edi'],
        summary:
          "The organization's EDI documents in and out, newest first (table protocol; filters `direction`, `type`, `status`; search by control number, partner or load id)",
        querystring: TableQuery,
        response: ediAnswers.documents,
      },
      onRequest: [can(LOAD_IMPORT), ownOrganization],
    },
    async (request) => {
      const query = request.query;
      const filters = activeFilters(query);
      const listOf = (name: string, allowed: readonly string[]) => {
        const values = (filters.get(name) ?? []).map(String);
        const unknown = values.find((value) => !allowed.includes(value));
        if (unknown !== undefined)
          throw ValidationError.field('filters', `${name} is one of ${allowed.join(', ')}`);
        return values;
      };
      const { total, rows } = await edi.documents.list(organizationOf(request), {
        page: query.page,
        pageSize: query.pageSize,
        search: query.search,
        directions: listOf('direction', ['in', 'out']),
        types: listOf('type', EDI_DOCUMENT_TYPES),
        statuses: listOf('status', EDI_DOCUMENT_STATUSES),
      });
      return tableAnswer(query, total, rows, []);
    },
  );

  app.get(
    '/edi/documents/:id/raw',
    {
      schema: {
        tags: ['edi'],
        summary: "A document's X12 text",
        params: IdParams,
        response: ediAnswers.raw,
      },
      onRequest: [can(LOAD_IMPORT), ownOrganization],
    },
    async (request, reply) =>
      reply
        .type('application/edi-x12; charset=utf-8')
        .send(await edi.documents.raw(organizationOf(request), request.params.id)),
  );

  app.post(
    '/edi/documents/:id/resend',
    {
      schema: {
        tags: ['edi'],
        summary:
          'Send an outgoing document again: to the partner URL, or back into its mailbox (409 for a document received)',
        params: IdParams,
        response: ediAnswers.resend,
      },
      onRequest: [can(LOAD_IMPORT), ownOrganization],
    },
    async (request, reply) =>
      reply.code(202).send(await edi.documents.resend(organizationOf(request), request.params.id)),
  );

  app.get(
    '/edi/mailbox',
    {
      schema: {
        tags: ['edi'],
        summary:
          "The partner's outgoing documents not yet acknowledged, oldest first (Authorization: Bearer <apiKey>)",
        response: ediAnswers.mailbox,
      },
      config: { public: true, rateLimit: { max: 120, timeWindow: '1 minute' } },
      onRequest: partnerKey,
    },
    async (request) => edi.documents.mailbox(partnerOf(request)),
  );

  app.post(
    '/edi/mailbox/ack',
    {
      schema: {
        tags: ['edi'],
        summary: 'Acknowledge fetched documents {ids}: they leave the mailbox',
        body: EdiMailboxAckBodySchema,
        response: ediAnswers.mailboxAck,
      },
      config: { public: true, rateLimit: { max: 120, timeWindow: '1 minute' } },
      onRequest: partnerKey,
    },
    async (request) => edi.documents.acknowledge(partnerOf(request), request.body.ids),
  );
}
