import { LOAD_IMPORT } from '../../domain/permissions.ts';
import { LoadsImportBodySchema, loadsAnswers } from '../../domain/contracts/loads.contract.ts';
import type { App } from '../http/routeContext.ts';
import { can, requireActor } from '../http/auth.ts';
import { errorBody } from '../http/errors.ts';
import { latest } from '../eventstore/eventStore.ts';
import {
  LOADS_CSV_DEFAULT_MAX_ROWS,
  loadsCsvTemplate,
  loadsCsvTooManyRowsMessage,
  parseLoadsCsv,
} from '../integrations/csv/loadsCsv.ts';
import { readMultipart } from '../integrations/files/uploads.ts';
import { gazetteer } from '../integrations/places/gazetteer.ts';
import { callerOf, withPlaces } from './loadRequests.ts';

/** The CSV import of loads: the template to fill in, and the import itself (all rows or none). */
export function loadImportRoutes(app: App) {
  const { marketplace } = app.platform;

  app.get(
    '/loads/batchImport/template',
    {
      schema: {
        tags: ['loads'],
        summary: 'The CSV template: the header row and one example row',
        response: loadsAnswers.template,
      },
      onRequest: can(LOAD_IMPORT),
    },
    async (_request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="loads-template.csv"')
        .send(loadsCsvTemplate(new Date().toISOString())),
  );

  app.post(
    '/loads/batchImport',
    {
      schema: {
        tags: ['loads'],
        summary: 'Import loads from a CSV file (csv_loads_file): all rows or none',
        consumes: ['multipart/form-data'],
        body: LoadsImportBodySchema,
        response: loadsAnswers.batchImport,
      },
      onRequest: can(LOAD_IMPORT),
    },
    async (request, reply) => {
      const actor = requireActor(request);
      await marketplace.requireActiveOrganization(actor);
      const { files } = await readMultipart(request, {
        files: { csv_loads_file: { required: true, accept: 'csv' } },
      });
      const file = files.csv_loads_file!;
      const now = new Date().toISOString();
      const places = gazetteer();
      const parsed = parseLoadsCsv(file.buffer, {
        now,
        geocode: (text: string) => places.geocode(text),
      });
      if (!parsed.ok) {
        // Too many rows is a payload too large (413); any other problem is the rows' own (400).
        const status =
          parsed.message === loadsCsvTooManyRowsMessage(LOADS_CSV_DEFAULT_MAX_ROWS) ? 413 : 400;
        return reply
          .code(status)
          .send({ ...errorBody(status, parsed.message), errors: parsed.errors });
      }
      const caller = callerOf(request, actor);
      const ids: string[] = [];
      let last = null;
      for (const body of parsed.loads) {
        const { id, position } = await marketplace.postLoad(caller, withPlaces(body), now);
        ids.push(id);
        last = latest(last, position);
      }
      app.consistency.wrote(request, reply, last);
      return reply.code(201).send({ created: ids.length, ids });
    },
  );
}
