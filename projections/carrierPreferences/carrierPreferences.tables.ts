/**
 * `carrier_preferences_view` (migration 2026_11_29_1600_carrier_preferences): one row per shipper
 * and carrier on one of the shipper's lists, `position` its place in the list.
 */
export type CarrierPreferencesViewTable = {
  shipper_organization_id: string;
  carrier_organization_id: string;
  list: 'preferred' | 'blocked';
  position: number;
};

export type CarrierPreferencesTables = { carrier_preferences_view: CarrierPreferencesViewTable };
