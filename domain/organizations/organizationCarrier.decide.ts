/**
 * An organization's carrier side: the carrier profile as sent and its checks (MC and DOT numbers set
 * once, documents kept unless replaced), and the recorded checks of the carrier's operating authority.
 * Combined into the organization's decider in organization.decide.ts.
 */
import { IllegalStateError, ValidationError } from '../shared/errors.ts';
import type { Command } from '../shared/event.ts';
import type {
  CarrierAuthority,
  CarrierDocuments,
  CarrierProfile,
  OrganizationEvent,
  RegisteredOrganization,
  VehicleCount,
} from './organization.ts';

/** A carrier profile as sent: documents not sent are absent (at registration: none uploaded). */
export type CarrierProfileInput = {
  mcNumber: number | null;
  dotNumber: number | null;
  eldProvider: string | null;
  trucks: VehicleCount[];
  trailers: VehicleCount[];
  driverTeams: VehicleCount[];
  documents: Partial<CarrierDocuments>;
};

/**
 * `mcNumber` and `dotNumber` null mean "not sent" (the form disables them once set); a document
 * absent from `documents` keeps its current file id.
 */
export type ChangeCarrierProfile = Command<
  'ChangeCarrierProfile',
  CarrierProfileInput & { organizationId: string; now: string }
>;

/**
 * A check of the carrier's authority: recorded as CarrierAuthorityChecked the first time, then as
 * CarrierAuthorityChanged only when the status or the insurance differs from the last one recorded.
 */
export type RecordCarrierAuthority = Command<
  'RecordCarrierAuthority',
  { organizationId: string; authority: CarrierAuthority }
>;

const isPositiveInteger = (value: number) => Number.isInteger(value) && value > 0;

export const checkNumbers = ({ mcNumber, dotNumber }: CarrierProfileInput) => {
  if (mcNumber !== null && !isPositiveInteger(mcNumber))
    throw ValidationError.field('mcNumber', 'Please enter your MC Number');
  if (dotNumber !== null && !isPositiveInteger(dotNumber))
    throw ValidationError.field('dotNumber', 'Please enter your DOT Number');
};

/** MC and DOT numbers identify the carrier with the FMCSA: set once, never changed. */
const keepOnceSet = (
  field: 'mcNumber' | 'dotNumber',
  label: string,
  current: number | null,
  sent: number | null,
): number | null => {
  if (sent === null || sent === current) return current;
  if (current !== null) {
    const message = `${label} cannot be changed once set`;
    throw new IllegalStateError(message, [{ path: field, message }]);
  }
  return sent;
};

export const changeCarrierProfile = (
  { data }: ChangeCarrierProfile,
  state: RegisteredOrganization,
): OrganizationEvent[] => {
  if (state.type !== 'Carrier' || !state.carrier)
    throw new IllegalStateError(`Organization is a ${state.type} and has no carrier profile`);
  checkNumbers(data);
  const current = state.carrier;
  const profile: CarrierProfile = {
    mcNumber: keepOnceSet('mcNumber', 'MC Number', current.mcNumber, data.mcNumber),
    dotNumber: keepOnceSet('dotNumber', 'DOT Number', current.dotNumber, data.dotNumber),
    eldProvider: data.eldProvider,
    trucks: data.trucks,
    trailers: data.trailers,
    driverTeams: data.driverTeams,
    documents: { ...current.documents, ...definedOnly(data.documents) },
  };
  return [
    {
      type: 'CarrierProfileChanged',
      data: { organizationId: state.organizationId, profile, changedAt: data.now },
    },
  ];
};

/** Drops keys whose value is undefined, so that `{w9Form: undefined}` keeps the stored file. */
export const definedOnly = (documents: Partial<CarrierDocuments>): Partial<CarrierDocuments> =>
  Object.fromEntries(Object.entries(documents).filter(([, value]) => value !== undefined));

export const recordCarrierAuthority = (
  { data }: RecordCarrierAuthority,
  state: RegisteredOrganization,
): OrganizationEvent[] => {
  if (state.type !== 'Carrier')
    throw new IllegalStateError(`Organization is a ${state.type} and has no operating authority`);
  const { authority } = data;
  const organizationId = state.organizationId;
  const last = state.authority;
  if (!last) return [{ type: 'CarrierAuthorityChecked', data: { organizationId, ...authority } }];
  if (last.status === authority.status && last.insuranceOnFile === authority.insuranceOnFile)
    return [];
  return [
    {
      type: 'CarrierAuthorityChanged',
      data: {
        organizationId,
        ...authority,
        previous: { status: last.status, insuranceOnFile: last.insuranceOnFile },
      },
    },
  ];
};
