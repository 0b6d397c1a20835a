/**
 * What every ELD provider offers the marketplace: a catalogue entry (name, description, the labels
 * of the install dialog), a credentials check, and the current position of each truck.
 */
import { DomainError } from '../../../domain/shared/errors.ts';

export type EldCredentials = {
  /** Null for providers whose only credential is the secret. */
  clientId: string | null;
  clientSecret: string;
};

/** One truck as its ELD last reported it: speed in mph, heading in degrees clockwise from north. */
export type EldTruck = {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  speed: number | null;
  heading: number | null;
  /** ISO time of the report. */
  updatedAt: string;
};

/** Whose fleet is asked for, and when (the simulator's trucks are a function of both). */
export type FleetContext = { organizationId: string; now?: Date };

export type VerifyResult = { ok: true } | { ok: false; refused: string };

export type CredentialLabels = {
  /** Null when the provider has no client id (the field is not shown). */
  clientId: string | null;
  clientSecret: string;
};

export interface EldProvider {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly credentialLabels: CredentialLabels;
  /** Asks the provider whether it accepts the credentials; a refusal carries its reason. */
  verify(credentials: EldCredentials, context: FleetContext): Promise<VerifyResult>;
  /** Every truck of the fleet with a known position. Throws CredentialsRefusedError or ProviderUnavailableError. */
  trucks(credentials: EldCredentials, context: FleetContext): Promise<EldTruck[]>;
}

/** The provider answered 401 or 403: the stored or offered credentials are not (or no longer) good. */
export class CredentialsRefusedError extends Error {
  readonly provider: string;
  readonly reason: string;

  constructor(provider: string, reason: string) {
    super(reason);
    this.provider = provider;
    this.reason = reason;
    this.name = 'CredentialsRefusedError';
  }
}

/**
 * The provider could not answer now: rate limited past what we wait for, timed out, unreachable
 * or failing. Answered 503, with Retry-After when the provider named a delay.
 */
export class ProviderUnavailableError extends DomainError {
  readonly statusCode = 503;
  readonly retryAfterSeconds: number | null;

  constructor(message: string, retryAfterSeconds: number | null = null) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** Truck names are typed by people on both sides: compare them without case or surrounding spaces. */
export const sameTruckName = (a: string, b: string): boolean =>
  a.trim().toLowerCase() === b.trim().toLowerCase();
