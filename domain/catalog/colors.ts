/**
 * Chip colours as semantic names plus a hex that reads on both light and dark themes. The
 * specification's "Status chips" rule fixes red, green, blue, orange and purple; amber and grey are
 * ours for the statuses it does not colour.
 */
export type ChipColorName = 'red' | 'green' | 'blue' | 'orange' | 'purple' | 'grey' | 'amber';
export type ChipColor = { readonly name: ChipColorName; readonly hex: string };

export const chipColors: Readonly<Record<ChipColorName, ChipColor>> = {
  red: { name: 'red', hex: '#D32F2F' },
  green: { name: 'green', hex: '#2E7D32' },
  blue: { name: 'blue', hex: '#1976D2' },
  orange: { name: 'orange', hex: '#ED6C02' },
  purple: { name: 'purple', hex: '#7B1FA2' },
  grey: { name: 'grey', hex: '#757575' },
  amber: { name: 'amber', hex: '#FFA000' },
};
