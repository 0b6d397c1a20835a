import type { Entry } from './lookup.ts';

/** Truck types a carrier declares (`trucks: [{type, count}]`). */
export const truckTypes: readonly Entry[] = [
  { id: 1, name: 'Cargo Van' },
  { id: 2, name: 'Small Straight' },
  { id: 3, name: 'Large Straight' },
  { id: 4, name: 'Tractor' },
  { id: 5, name: 'Flatbed' },
];

export const driverTeams: readonly Entry[] = [
  { id: 1, name: 'Single Driver' },
  { id: 2, name: 'Two Drivers' },
];

export const EquipmentGroup = { FlatBed: 1, DryVan: 2, Reefer: 3 } as const;
export type EquipmentGroupId = (typeof EquipmentGroup)[keyof typeof EquipmentGroup];

export const equipmentGroups: readonly (Entry & { readonly id: EquipmentGroupId })[] = [
  { id: 1, name: 'FlatBed' },
  { id: 2, name: 'Dry Van' },
  { id: 3, name: 'Reefer' },
];

export type TrailerType = Entry & { readonly equipmentGroupId: EquipmentGroupId | null };

const F = EquipmentGroup.FlatBed;
const V = EquipmentGroup.DryVan;
const R = EquipmentGroup.Reefer;

/**
 * Trailer types 1 to 51, used both for a carrier's fleet and for a load's equipment. The
 * specification names 5, 8, 15, 24, 32, 43 and 48 (kept verbatim, spelling included); the other
 * names are ours, common North American equipment, grouped as load boards group them: heavy-haul
 * decks (step deck, double drop, RGN, lowboy) count as flatbeds; bulk, auto and container equipment
 * belong to no group.
 */
export const trailerTypes: readonly TrailerType[] = [
  { id: 1, name: 'Dry Van', equipmentGroupId: V },
  { id: 2, name: '28 ft Pup Dry Van', equipmentGroupId: V },
  { id: 3, name: '40 ft Dry Van', equipmentGroupId: V },
  { id: 4, name: '45 ft Dry Van', equipmentGroupId: V },
  { id: 5, name: '48 Foot Dry Van', equipmentGroupId: V },
  { id: 6, name: '53 ft Dry Van', equipmentGroupId: V },
  { id: 7, name: 'Dry Van Doubles', equipmentGroupId: V },
  { id: 8, name: '48 ft Reefer', equipmentGroupId: R },
  { id: 9, name: 'Reefer', equipmentGroupId: R },
  { id: 10, name: '28 ft Pup Reefer', equipmentGroupId: R },
  { id: 11, name: '40 ft Reefer', equipmentGroupId: R },
  { id: 12, name: '45 ft Reefer', equipmentGroupId: R },
  { id: 13, name: 'Multi-Temp Reefer', equipmentGroupId: R },
  { id: 14, name: 'Reefer Doubles', equipmentGroupId: R },
  { id: 15, name: '53 ft Reefer', equipmentGroupId: R },
  { id: 16, name: 'Vented Van', equipmentGroupId: V },
  { id: 17, name: 'Dry Van with Liftgate', equipmentGroupId: V },
  { id: 18, name: 'Air-Ride Dry Van', equipmentGroupId: V },
  { id: 19, name: 'Curtain Side Van', equipmentGroupId: V },
  { id: 20, name: 'Hazmat Dry Van', equipmentGroupId: V },
  { id: 21, name: '48 ft Flatbed', equipmentGroupId: F },
  { id: 22, name: '53 ft Flatbed', equipmentGroupId: F },
  { id: 23, name: 'Flatbed with Sides', equipmentGroupId: F },
  { id: 24, name: 'Conestoga', equipmentGroupId: F },
  { id: 25, name: 'Flatbed with Tarps', equipmentGroupId: F },
  { id: 26, name: 'Hotshot Flatbed', equipmentGroupId: F },
  { id: 27, name: 'Maxi Flatbed', equipmentGroupId: F },
  { id: 28, name: 'Stretch Flatbed', equipmentGroupId: F },
  { id: 29, name: 'Flatbed Doubles', equipmentGroupId: F },
  { id: 30, name: 'Flatbed B-Train', equipmentGroupId: F },
  { id: 31, name: 'Flatbed with Moffett', equipmentGroupId: F },
  { id: 32, name: 'Flat Bed', equipmentGroupId: F },
  { id: 33, name: 'Air-Ride Flatbed', equipmentGroupId: F },
  { id: 34, name: 'Hazmat Flatbed', equipmentGroupId: F },
  { id: 35, name: 'Step Deck with Ramps', equipmentGroupId: F },
  { id: 36, name: 'Stretch Step Deck', equipmentGroupId: F },
  { id: 37, name: 'Step Deck Conestoga', equipmentGroupId: F },
  { id: 38, name: 'Double Drop', equipmentGroupId: F },
  { id: 39, name: 'Stretch Double Drop', equipmentGroupId: F },
  { id: 40, name: 'Removable Gooseneck (RGN)', equipmentGroupId: F },
  { id: 41, name: 'Lowboy', equipmentGroupId: F },
  { id: 42, name: 'Landoll (Traveling Axle)', equipmentGroupId: F },
  { id: 43, name: 'Step Deck', equipmentGroupId: F },
  { id: 44, name: 'Hopper Bottom', equipmentGroupId: null },
  { id: 45, name: 'Dump Trailer', equipmentGroupId: null },
  { id: 46, name: 'Walking Floor', equipmentGroupId: null },
  { id: 47, name: 'Pneumatic Dry Bulk Tanker', equipmentGroupId: null },
  { id: 48, name: 'Tanker', equipmentGroupId: null },
  { id: 49, name: 'Car Hauler', equipmentGroupId: null },
  { id: 50, name: 'Container Chassis', equipmentGroupId: null },
  { id: 51, name: 'Power Only', equipmentGroupId: null },
];

/** The trailer types of one equipment group (null: those in no group). */
export const trailerTypesInGroup = (groupId: EquipmentGroupId | null): TrailerType[] =>
  trailerTypes.filter((trailer) => trailer.equipmentGroupId === groupId);
