/**
 * Freight hubs of the contiguous United States, inland so that a gently curved path between two of
 * them stays on land. City-centre coordinates (WGS 84).
 */
export type City = { name: string; state: string; latitude: number; longitude: number };

export const usCities: readonly City[] = [
  { name: 'Chicago', state: 'IL', latitude: 41.8781, longitude: -87.6298 },
  { name: 'Indianapolis', state: 'IN', latitude: 39.7684, longitude: -86.1581 },
  { name: 'St. Louis', state: 'MO', latitude: 38.627, longitude: -90.1994 },
  { name: 'Kansas City', state: 'MO', latitude: 39.0997, longitude: -94.5786 },
  { name: 'Memphis', state: 'TN', latitude: 35.1495, longitude: -90.049 },
  { name: 'Nashville', state: 'TN', latitude: 36.1627, longitude: -86.7816 },
  { name: 'Atlanta', state: 'GA', latitude: 33.749, longitude: -84.388 },
  { name: 'Dallas', state: 'TX', latitude: 32.7767, longitude: -96.797 },
  { name: 'Oklahoma City', state: 'OK', latitude: 35.4676, longitude: -97.5164 },
  { name: 'Denver', state: 'CO', latitude: 39.7392, longitude: -104.9903 },
  { name: 'Omaha', state: 'NE', latitude: 41.2565, longitude: -95.9345 },
  { name: 'Minneapolis', state: 'MN', latitude: 44.9778, longitude: -93.265 },
  { name: 'Detroit', state: 'MI', latitude: 42.3314, longitude: -83.0458 },
  { name: 'Columbus', state: 'OH', latitude: 39.9612, longitude: -82.9988 },
  { name: 'Louisville', state: 'KY', latitude: 38.2527, longitude: -85.7585 },
  { name: 'Charlotte', state: 'NC', latitude: 35.2271, longitude: -80.8431 },
  { name: 'Little Rock', state: 'AR', latitude: 34.7465, longitude: -92.2896 },
  { name: 'Cincinnati', state: 'OH', latitude: 39.1031, longitude: -84.512 },
  { name: 'Pittsburgh', state: 'PA', latitude: 40.4406, longitude: -79.9959 },
  { name: 'Birmingham', state: 'AL', latitude: 33.5186, longitude: -86.8104 },
];
