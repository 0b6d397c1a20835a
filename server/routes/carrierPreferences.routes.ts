import type { FastifyRequest } from 'fastify';
import {
  CarrierPreferencesBodySchema,
  carrierPreferencesAnswers,
} from '../../domain/contracts/carrierPreferences.contract.ts';
import { GenericStatus } from '../../domain/catalog.ts';
import { LOADS_SHIPPER } from '../../domain/permissions.ts';
import { carrierPreferencesBodySchema } from '../../domain/schemas/carrierPreferences.schema.ts';
import { ForbiddenError } from '../../domain/shared/errors.ts';
import { carrierPreferencesOf } from '../../projections/carrierPreferences/carrierPreferences.queries.ts';
import type { App } from '../http/routeContext.ts';
import { createCarrierPreferenceCommands } from '../commands/carrierPreferences.ts';
import { can, requireActor } from '../http/auth.ts';
import { parseWith } from '../http/parseWith.ts';

const PREFERENCE_VIEWS = ['carrierPreferences'] as const;
const NOT_A_SHIPPER = 'Preferred and blocked carriers belong to a shipper organization';
/** Before the body is read: a caller of no organization (a Superadmin) has no lists. */
const shipperOnly = async (request: FastifyRequest) => {
  if (!requireActor(request).organizationId) throw new ForbiddenError(NOT_A_SHIPPER);
};

/**
 * A shipper's preferred and blocked carriers (docs/api.md "Preferred and blocked carriers"): the
 * lists, replaced as a whole, and the Active carriers to choose from. Stream
 * `carrierpreferences-<organizationId>`; read from `carrier_preferences_view`.
 */
export async function carrierPreferencesRoutes(app: App) {
  const { store, runner } = app.platform;
  const { db } = app.platform.database;
  const commands = createCarrierPreferenceCommands({ store, db });

  app.get(
    '/carriers/preferences',
    {
      schema: {
        tags: ['carriers'],
        summary: "The shipper's preferred and blocked carriers (organization ids)",
        response: carrierPreferencesAnswers.get,
      },
      onRequest: [can(LOADS_SHIPPER), shipperOnly],
    },
    async (request) => {
      const actor = requireActor(request);
      return carrierPreferencesOf(db, actor.organizationId ?? '');
    },
  );

  app.put(
    '/carriers/preferences',
    {
      schema: {
        tags: ['carriers'],
        summary:
          'Replace the lists: {preferred: [organizationId], blocked: [organizationId]}; Active carriers only, none on both',
        body: CarrierPreferencesBodySchema,
        response: carrierPreferencesAnswers.put,
      },
      onRequest: [can(LOADS_SHIPPER), shipperOnly],
    },
    async (request) => {
      const actor = requireActor(request);
      if (!actor.organizationId) throw new ForbiddenError(NOT_A_SHIPPER);
      const body = parseWith(carrierPreferencesBodySchema, request.body);
      const { position, state } = await commands.setPreferences(
        { actor, requestId: request.id },
        body,
        new Date().toISOString(),
      );
      if (position) await runner.waitFor(PREFERENCE_VIEWS, position);
      return { preferred: state.preferred, blocked: state.blocked };
    },
  );

  app.get(
    '/carriers/choices',
    {
      schema: {
        tags: ['carriers'],
        summary: 'The Active carrier organizations a shipper may prefer or block, by name',
        response: carrierPreferencesAnswers.choices,
      },
      onRequest: [can(LOADS_SHIPPER), shipperOnly],
    },
    async (request) => {
      requireActor(request);
      return db
        .selectFrom('organizations_view')
        .select(['id', 'name'])
        .where('type', '=', 'Carrier')
        .where('status', '=', GenericStatus.Active)
        .orderBy('name')
        .orderBy('id')
        .execute();
    },
  );
}
