/**
 * The rules of an organization's ELD service: installed once per provider, then only its
 * credentials change, and only by its own organization (or a Superadmin). Checking the credentials
 * with the provider and sealing the secret are I/O: the command handler does both before deciding.
 */
import { uuidV5 } from '../offers/offer.decide.ts';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.ts';
import { assertNever, type Decider } from '../shared/event.ts';
import type {
  InstallService,
  OrganizationService,
  OrganizationServiceCommand,
  OrganizationServiceEvent,
  UpdateServiceCredentials,
} from './organizationService.types.ts';

const ORGANIZATION_SERVICE_NAMESPACE = '8a2f4c61-3d7e-4b19-9c55-0e6d1f7a2b93';

/** One installation per organization and provider: the id is derived from both. */
export const organizationServiceIdFor = (organizationId: string, serviceId: string): string =>
  uuidV5(`${organizationId}:${serviceId}`, ORGANIZATION_SERVICE_NAMESPACE);

export const ALREADY_INSTALLED_MESSAGE =
  'This service is already installed for your organization: update its credentials instead';
export const SERVICE_NOT_FOUND_MESSAGE = 'Service not found';

export const initialOrganizationService = (): OrganizationService => ({ exists: false });

export const evolveOrganizationService = (
  state: OrganizationService,
  event: OrganizationServiceEvent,
): OrganizationService => {
  switch (event.type) {
    case 'ServiceInstalled': {
      const {
        organizationServiceId,
        organizationId,
        serviceId,
        clientId,
        sealedSecret,
        installedAt,
      } = event.data;
      return {
        exists: true,
        organizationServiceId,
        organizationId,
        serviceId,
        clientId,
        sealedSecret,
        installedAt,
        updatedAt: installedAt,
      };
    }
    case 'ServiceCredentialsUpdated':
      if (!state.exists) return state;
      return {
        ...state,
        clientId: event.data.clientId,
        sealedSecret: event.data.sealedSecret,
        updatedAt: event.data.updatedAt,
      };
    default:
      return assertNever(event);
  }
};

export const decideOrganizationService = (
  command: OrganizationServiceCommand,
  state: OrganizationService,
): OrganizationServiceEvent[] => {
  switch (command.type) {
    case 'InstallService':
      return installService(command, state);
    case 'UpdateServiceCredentials':
      return updateServiceCredentials(command, state);
    default:
      return assertNever(command);
  }
};

export const organizationServiceDecider: Decider<
  OrganizationService,
  OrganizationServiceCommand,
  OrganizationServiceEvent
> = {
  initialState: initialOrganizationService,
  evolve: evolveOrganizationService,
  decide: decideOrganizationService,
};

const requireSecret = (sealedSecret: string) => {
  if (sealedSecret.trim() === '')
    throw ValidationError.field('clientSecret', 'The secret is required');
};

const installService = (
  { data }: InstallService,
  state: OrganizationService,
): OrganizationServiceEvent[] => {
  if (state.exists) throw new ConflictError(ALREADY_INSTALLED_MESSAGE);
  if (
    data.organizationServiceId !== organizationServiceIdFor(data.organizationId, data.serviceId)
  ) {
    throw ValidationError.field(
      'organizationServiceId',
      'The service id does not match the organization and the provider',
    );
  }
  requireSecret(data.sealedSecret);
  return [
    {
      type: 'ServiceInstalled',
      data: {
        organizationServiceId: data.organizationServiceId,
        organizationId: data.organizationId,
        serviceId: data.serviceId,
        clientId: data.clientId,
        sealedSecret: data.sealedSecret,
        installedBy: data.userId,
        installedAt: data.now,
      },
    },
  ];
};

const updateServiceCredentials = (
  { data }: UpdateServiceCredentials,
  state: OrganizationService,
): OrganizationServiceEvent[] => {
  if (!state.exists || (data.by !== null && data.by !== state.organizationId))
    throw new NotFoundError(SERVICE_NOT_FOUND_MESSAGE);
  requireSecret(data.sealedSecret);
  return [
    {
      type: 'ServiceCredentialsUpdated',
      data: {
        organizationServiceId: state.organizationServiceId,
        clientId: data.clientId,
        sealedSecret: data.sealedSecret,
        updatedBy: data.userId,
        updatedAt: data.now,
      },
    },
  ];
};
