/**
 * The organization service aggregate (stream `orgservice-<uuid>`): one carrier organization's
 * installation of one ELD provider (docs/domain.md "Organization services (ELD)"). The stream id is derived from the organization and the provider
 * (`organizationServiceIdFor`), so an organization installs each provider once; afterwards only its
 * credentials change. The secret arrives already sealed (AES-256-GCM): the log never holds it in
 * clear text. Types only; rules are in `organizationService.decide.ts`.
 */
import type { Command, Event } from '../shared/event.ts';

export const organizationServiceStream = (organizationServiceId: string): string =>
  `orgservice-${organizationServiceId}`;

export type ServiceInstalled = Event<
  'ServiceInstalled',
  {
    organizationServiceId: string;
    organizationId: string;
    serviceId: string;
    /** Null for providers whose only credential is the secret (an API token or key). */
    clientId: string | null;
    /** The secret sealed with the server's key, bound to `organizationServiceId`. */
    sealedSecret: string;
    installedBy: string | null;
    installedAt: string;
  }
>;
export type ServiceCredentialsUpdated = Event<
  'ServiceCredentialsUpdated',
  {
    organizationServiceId: string;
    clientId: string | null;
    sealedSecret: string;
    updatedBy: string | null;
    updatedAt: string;
  }
>;

export type OrganizationServiceEvent = ServiceInstalled | ServiceCredentialsUpdated;

/** The command handler checked the credentials with the provider and sealed the secret. */
export type InstallService = Command<
  'InstallService',
  {
    organizationServiceId: string;
    organizationId: string;
    serviceId: string;
    clientId: string | null;
    sealedSecret: string;
    userId: string | null;
    now: string;
  }
>;
/** `by` is the acting organization (null for a Superadmin); another organization's service is not found. */
export type UpdateServiceCredentials = Command<
  'UpdateServiceCredentials',
  {
    organizationServiceId: string;
    by: string | null;
    clientId: string | null;
    sealedSecret: string;
    userId: string | null;
    now: string;
  }
>;

export type OrganizationServiceCommand = InstallService | UpdateServiceCredentials;

export type InstalledService = {
  exists: true;
  organizationServiceId: string;
  organizationId: string;
  serviceId: string;
  clientId: string | null;
  sealedSecret: string;
  installedAt: string;
  updatedAt: string;
};
export type OrganizationService = { exists: false } | InstalledService;
