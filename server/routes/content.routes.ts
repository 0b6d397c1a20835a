import { contentContract, SendInfoBody } from '../../domain/contracts/content.contract.ts';
import { normaliseContact } from '../../domain/leads/lead.decide.ts';
import { NotFoundError } from '../../domain/shared/errors.ts';
import type { App } from '../http/routeContext.ts';
import { errorBody } from '../http/errors.ts';
import { parseWith } from '../http/parseWith.ts';
import { contentServiceFor, type ContentService } from '../integrations/content/content.ts';
import { contentTypes, isContentType } from '../integrations/content/content.types.ts';
import { registerInterest } from '../commands/leads.ts';
import { createLeadLimiter, leadNotice } from '../integrations/content/leads.ts';
import { leadsProjection } from '../../projections/leads/leads.projection.ts';

/** Per address a minute: enough to fix a typo, too few to flood the administrator's inbox. */
export const LEADS_PER_ADDRESS_PER_MINUTE = 5;
export const THANK_YOU = 'Thank you! We will be in touch soon.';

/**
 * The public landing page: its content by type (Contentful or the built-in content) and the
 * sign-up-interest form, which stores a lead and e-mails the administrator.
 */
export async function contentRoutes(app: App, options: { content?: ContentService } = {}) {
  const { config, store, runner, mailer, database } = app.platform;
  const content = options.content ?? contentServiceFor(config, database.db, app.log);
  const perAddress = createLeadLimiter({ max: LEADS_PER_ADDRESS_PER_MINUTE, windowMs: 60_000 });

  app.get(
    '/content/:type',
    {
      schema: {
        tags: ['content'],
        summary:
          'The landing content of one type: a list of items (the first is the one a single-item section shows)',
        description: `type is one of ${contentTypes.join(', ')}; aboutCards has three cards and featuresSection four tabs, the others one item. Unknown types answer 404.`,
        ...contentContract.get,
      },
      config: { public: true },
    },
    async (request, reply) => {
      const { type } = request.params;
      if (!isContentType(type))
        throw new NotFoundError(
          `Unknown content type ${type}: use one of ${contentTypes.join(', ')}`,
        );
      reply.header('cache-control', 'public, max-age=60');
      return content.get(type);
    },
  );

  app.post(
    '/sendInfoToAdmin',
    {
      schema: {
        tags: ['content'],
        summary:
          'The landing form: { email }, what the visitor typed (1 to 200 characters, no format check), is stored as a lead and sent to the administrator',
        // Declared optional and checked inside: an absent body answers 400 naming `email`, as an empty one does.
        ...contentContract.sendInfo,
        body: SendInfoBody.nullish(),
      },
      config: { public: true, rateLimit: { max: 20, timeWindow: '1 minute' } },
    },
    async (request, reply) => {
      const { email } = parseWith(SendInfoBody, request.body);
      // Each client may send 20 a minute (the route's limit), each e-mail address 5.
      const wait = perAddress.take(normaliseContact(email));
      if (wait > 0) {
        return reply
          .code(429)
          .header('retry-after', String(wait))
          .send(
            errorBody(429, `Too many requests for this address. Try again in ${wait} seconds.`),
          );
      }
      const now = new Date().toISOString();
      const lead = await registerInterest(store, email, { requestId: request.id }, now);
      if (lead.isNew) {
        // The lead is stored: a mail server that is down must not make the visitor try again.
        await mailer
          .send(leadNotice(config.adminEmail, lead, now))
          .catch((err: unknown) =>
            request.log.error({ err, leadId: lead.leadId }, 'lead e-mail could not be sent'),
          );
        if (runner.projections.some((projection) => projection.name === leadsProjection.name))
          await runner.waitFor([leadsProjection.name], lead.position);
      }
      return { message: THANK_YOU };
    },
  );
}
