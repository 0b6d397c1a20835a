/**
 * The command and query side of the organization services (ELD): the catalogue as a carrier sees
 * it, installing a provider and changing its credentials (checked with the provider first, the
 * secret sealed before it reaches the log), and the fleet of an installed service.
 */
import type { Kysely } from 'kysely';
import {
  organizationServiceDecider,
  organizationServiceIdFor,
  SERVICE_NOT_FOUND_MESSAGE,
  ALREADY_INSTALLED_MESSAGE,
} from '../../domain/services/organizationService.decide.ts';
import {
  organizationServiceStream,
  type OrganizationService,
  type OrganizationServiceCommand,
  type OrganizationServiceEvent,
} from '../../domain/services/organizationService.types.ts';
import {
  ConflictError,
  IllegalStateError,
  NotFoundError,
  ValidationError,
} from '../../domain/shared/errors.ts';
import { installedServicesOf } from '../../projections/organizationServices/organizationServices.queries.ts';
import type { InstalledServiceRow } from '../../projections/organizationServices/organizationServices.tables.ts';
import type { DB } from '../../storage/schema.ts';
import { isSuperadmin, metadataOf, type Caller } from './caller.ts';
import { handleCommand } from '../eventstore/commandHandler.ts';
import type { EventStore, LogPosition } from '../eventstore/eventStore.ts';
import {
  CredentialsRefusedError,
  type CredentialLabels,
  type EldCredentials,
  type EldProvider,
  type EldTruck,
} from '../integrations/eld/provider.ts';
import type { EldProviders } from '../integrations/eld/providers.ts';
import { SealedSecretError, type SecretBox } from '../cluster/secretBox.ts';

export type { InstalledServiceRow };

/** What the install dialog shows of an installation: never the secret, only that one is set. */
export type OrganizationServiceData = {
  organizationServiceId: string;
  serviceId: string;
  clientId: string | null;
  secretSet: true;
  installedAt: string;
  updatedAt: string;
};

export type CatalogueEntry = {
  id: string;
  name: string;
  description: string;
  /** Null until installed (the dialog then shows Install), 'Installed' afterwards (Update). */
  status: 'Installed' | null;
  organizationServiceData: OrganizationServiceData | null;
  credentialLabels: CredentialLabels;
};

export type CredentialsBody = { clientId?: string | null; clientSecret: string };

const iso = (value: Date | string) =>
  (value instanceof Date ? value : new Date(value)).toISOString();

export function createOrganizationServices(deps: {
  db: Kysely<DB>;
  store: EventStore;
  providers: EldProviders;
  secrets: SecretBox;
}) {
  const { db, store, providers, secrets } = deps;

  const metadata = (caller: Caller, now: string) => metadataOf(caller, now);

  const run = (command: OrganizationServiceCommand, caller: Caller, now: string) =>
    handleCommand<OrganizationService, OrganizationServiceCommand, OrganizationServiceEvent>(
      store,
      organizationServiceStream(command.data.organizationServiceId),
      organizationServiceDecider,
      command,
      metadata(caller, now),
    );

  const fold = async (organizationServiceId: string): Promise<OrganizationService> => {
    const { events } = await store.readStream<OrganizationServiceEvent>(
      organizationServiceStream(organizationServiceId),
    );
    return events.reduce(
      organizationServiceDecider.evolve,
      organizationServiceDecider.initialState(),
    );
  };

  const installedOf = (organizationId: string): Promise<InstalledServiceRow[]> =>
    installedServicesOf(db, organizationId);
  const FLEET_CACHE_MS = 15_000;
  const recentFleets = new Map<string, { at: number; trucks: Promise<EldTruck[]> }>();

  const dataOf = (row: InstalledServiceRow): OrganizationServiceData => ({
    organizationServiceId: row.id,
    serviceId: row.service_id,
    clientId: row.client_id,
    secretSet: true,
    installedAt: iso(row.installed_at),
    updatedAt: iso(row.updated_at),
  });

  /** The credentials as the provider's labels require them: a client id only where it has one. */
  const credentialsFrom = (provider: EldProvider, body: CredentialsBody): EldCredentials => {
    const { clientId: clientIdLabel, clientSecret: secretLabel } = provider.credentialLabels;
    const clientSecret = body.clientSecret.trim();
    const clientId = clientIdLabel === null ? null : body.clientId?.trim() || null;
    if (clientIdLabel !== null && !clientId)
      throw ValidationError.field('clientId', `Please enter the ${clientIdLabel}`);
    if (!clientSecret)
      throw ValidationError.field('clientSecret', `Please enter the ${secretLabel}`);
    return { clientId, clientSecret };
  };

  /** Asks the provider; a refusal is the caller's mistake (400 with the provider's reason). */
  const verify = async (
    provider: EldProvider,
    credentials: EldCredentials,
    organizationId: string,
  ) => {
    const verdict = await provider.verify(credentials, { organizationId });
    if (!verdict.ok) throw ValidationError.field('clientSecret', verdict.refused);
  };

  const ownOrganization = (caller: Caller): string => {
    if (!caller.actor.organizationId) throw new NotFoundError('Organization not found');
    return caller.actor.organizationId;
  };

  /** The service's fleet, straight from the provider; errors are the provider's (see `fleetFor`). */
  const fleetOf = async (row: InstalledServiceRow, now?: Date): Promise<EldTruck[]> => {
    const provider = providers.byId(row.service_id);
    if (!provider)
      throw new IllegalStateError(`The ELD provider ${row.service_id} is no longer offered`);
    const clientSecret = secrets.open(row.sealed_secret, row.id);
    return provider.trucks(
      { clientId: row.client_id, clientSecret },
      { organizationId: row.organization_id, now },
    );
  };

  return {
    installedOf,
    fleetOf,
    nameOf: (serviceId: string) => providers.byId(serviceId)?.name ?? serviceId,

    /** Every provider, with the organization's installation where there is one (none for a caller without organization). */
    async catalogue(organizationId: string | null): Promise<CatalogueEntry[]> {
      const rows = organizationId ? await installedOf(organizationId) : [];
      return providers.list.map((provider) => {
        const row = rows.find((candidate) => candidate.service_id === provider.id);
        return {
          id: provider.id,
          name: provider.name,
          description: provider.description,
          status: row ? 'Installed' : null,
          organizationServiceData: row ? dataOf(row) : null,
          credentialLabels: { ...provider.credentialLabels },
        };
      });
    },

    async install(
      caller: Caller,
      body: CredentialsBody & { serviceId: string },
      now: string,
    ): Promise<{ organizationServiceId: string; position: LogPosition | null }> {
      const organizationId = ownOrganization(caller);
      const provider = providers.byId(body.serviceId);
      if (!provider) throw ValidationError.field('serviceId', 'Please select a valid service');
      const credentials = credentialsFrom(provider, body);
      const organizationServiceId = organizationServiceIdFor(organizationId, provider.id);
      // Refused before the provider is asked: the decider would refuse it anyway.
      if ((await fold(organizationServiceId)).exists)
        throw new ConflictError(ALREADY_INSTALLED_MESSAGE);
      await verify(provider, credentials, organizationId);
      const result = await run(
        {
          type: 'InstallService',
          data: {
            organizationServiceId,
            organizationId,
            serviceId: provider.id,
            clientId: credentials.clientId,
            sealedSecret: secrets.seal(credentials.clientSecret, organizationServiceId),
            userId: caller.actor.userId,
            now,
          },
        },
        caller,
        now,
      );
      return { organizationServiceId, position: result.position };
    },

    async update(
      caller: Caller,
      body: CredentialsBody & { organizationServiceId: string },
      now: string,
    ): Promise<{
      organizationServiceId: string;
      organizationId: string;
      serviceId: string;
      position: LogPosition | null;
    }> {
      const by = isSuperadmin(caller.actor) ? null : caller.actor.organizationId;
      const state = await fold(body.organizationServiceId);
      if (!state.exists || (by !== null && by !== state.organizationId))
        throw new NotFoundError(SERVICE_NOT_FOUND_MESSAGE);
      const provider = providers.byId(state.serviceId);
      if (!provider)
        throw new IllegalStateError(`The ELD provider ${state.serviceId} is no longer offered`);
      const credentials = credentialsFrom(provider, body);
      await verify(provider, credentials, state.organizationId);
      const result = await run(
        {
          type: 'UpdateServiceCredentials',
          data: {
            organizationServiceId: state.organizationServiceId,
            by,
            clientId: credentials.clientId,
            sealedSecret: secrets.seal(credentials.clientSecret, state.organizationServiceId),
            userId: caller.actor.userId,
            now,
          },
        },
        caller,
        now,
      );
      return {
        organizationServiceId: state.organizationServiceId,
        organizationId: state.organizationId,
        serviceId: state.serviceId,
        position: result.position,
      };
    },

    /**
     * The organization's installation named by its id, or by the provider's id ('samsara'); another
     * organization's, or none, is not found.
     */
    async find(organizationId: string | null, id: string): Promise<InstalledServiceRow> {
      const rows = organizationId ? await installedOf(organizationId) : [];
      const row = rows.find((candidate) => candidate.id === id || candidate.service_id === id);
      if (!row) throw new NotFoundError(SERVICE_NOT_FOUND_MESSAGE);
      return row;
    },

    /**
     * Where the organization's ELD services say the truck of that name is now (names compared
     * without case or surrounding spaces), or null when none reports it: a carrier shares a truck's
     * position by installing a service and naming the truck in its offer. A provider that fails is
     * skipped; fleets are read at most every 15 s per organization, however many maps ask.
     */
    async truckNamed(organizationId: string, name: string | null): Promise<EldTruck | null> {
      const wanted = name?.trim().toLowerCase();
      if (!wanted) return null;
      let fleet = recentFleets.get(organizationId);
      if (!fleet || Date.now() - fleet.at > FLEET_CACHE_MS) {
        const read = installedOf(organizationId).then(async (rows) =>
          (await Promise.all(rows.map((row) => fleetOf(row).catch(() => [] as EldTruck[])))).flat(),
        );
        fleet = { at: Date.now(), trucks: read };
        if (recentFleets.size >= 1_000) recentFleets.clear();
        recentFleets.set(organizationId, fleet);
        read.catch(() => recentFleets.delete(organizationId));
      }
      const trucks = await fleet.trucks.catch(() => [] as EldTruck[]);
      return trucks.find((truck) => truck.name.trim().toLowerCase() === wanted) ?? null;
    },

    /** The fleet for an HTTP caller: a refused or unreadable stored credential is a 409 that says what to do. */
    async fleetFor(row: InstalledServiceRow, now?: Date): Promise<EldTruck[]> {
      const name = providers.byId(row.service_id)?.name ?? row.service_id;
      try {
        return await fleetOf(row, now);
      } catch (error) {
        if (error instanceof CredentialsRefusedError)
          throw new IllegalStateError(
            `${error.reason}. Update the credentials of ${name} under Integrations.`,
          );
        if (error instanceof SealedSecretError)
          throw new IllegalStateError(
            `The stored credentials of ${name} cannot be read any more: please enter them again.`,
          );
        throw error;
      }
    },
  };
}

export type OrganizationServices = ReturnType<typeof createOrganizationServices>;
