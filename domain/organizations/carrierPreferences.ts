/**
 * A shipper's preferred and blocked carriers (stream `carrierpreferences-<organizationId>`,
 * docs/domain.md "Preferred and blocked carriers"): preferred carriers see a preferred-only load
 * first; blocked carriers never see the shipper's loads. Whether an id is an Active carrier is
 * checked by the command side (it comes in the command as `carriers`).
 */
import { ValidationError } from '../shared/errors.ts';
import type { Command, Decider, Event } from '../shared/event.ts';

export const carrierPreferencesStream = (organizationId: string): string =>
  `carrierpreferences-${organizationId}`;

export type CarrierPreferences = { preferred: string[]; blocked: string[] };

export type CarrierPreferencesChanged = Event<
  'CarrierPreferencesChanged',
  {
    organizationId: string;
    preferred: string[];
    blocked: string[];
    changedBy: string;
    changedAt: string;
  }
>;
export type CarrierPreferencesEvent = CarrierPreferencesChanged;

/** `activeCarriers`: which of the ids asked for are Active carrier organizations (read by the caller). */
export type SetCarrierPreferences = Command<
  'SetCarrierPreferences',
  {
    organizationId: string;
    userId: string;
    preferred: string[];
    blocked: string[];
    activeCarriers: ReadonlySet<string>;
    now: string;
  }
>;

export const initialCarrierPreferences = (): CarrierPreferences => ({ preferred: [], blocked: [] });

export const evolveCarrierPreferences = (
  _state: CarrierPreferences,
  event: CarrierPreferencesEvent,
): CarrierPreferences => ({ preferred: event.data.preferred, blocked: event.data.blocked });

const unique = (ids: string[]) => [...new Set(ids)];
const same = (a: string[], b: string[]) => a.length === b.length && a.every((id, i) => id === b[i]);

export const decideCarrierPreferences = (
  { data }: SetCarrierPreferences,
  state: CarrierPreferences,
): CarrierPreferencesEvent[] => {
  for (const list of ['preferred', 'blocked'] as const) {
    data[list].forEach((id, index) => {
      if (!data.activeCarriers.has(id) || id === data.organizationId)
        throw ValidationError.field(`${list}.${index}`, 'Not an active carrier organization');
    });
  }
  data.blocked.forEach((id, index) => {
    if (data.preferred.includes(id))
      throw ValidationError.field(
        `blocked.${index}`,
        'A carrier cannot be both preferred and blocked',
      );
  });
  const preferred = unique(data.preferred);
  const blocked = unique(data.blocked);
  if (same(preferred, state.preferred) && same(blocked, state.blocked)) return [];
  return [
    {
      type: 'CarrierPreferencesChanged',
      data: {
        organizationId: data.organizationId,
        preferred,
        blocked,
        changedBy: data.userId,
        changedAt: data.now,
      },
    },
  ];
};

export const carrierPreferencesDecider: Decider<
  CarrierPreferences,
  SetCarrierPreferences,
  CarrierPreferencesEvent
> = {
  initialState: initialCarrierPreferences,
  evolve: evolveCarrierPreferences,
  decide: decideCarrierPreferences,
};

/** Where a carrier stands with a shipper: on its preferred list, its blocked list, or neither. */
export const carrierStanding = (
  preferences: CarrierPreferences,
  carrierOrganizationId: string,
): 'preferred' | 'blocked' | null =>
  preferences.blocked.includes(carrierOrganizationId)
    ? 'blocked'
    : preferences.preferred.includes(carrierOrganizationId)
      ? 'preferred'
      : null;
