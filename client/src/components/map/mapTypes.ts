/**
 * The generic map's data, independent of OpenLayers: screens describe what to show (markers, a
 * trail, a view) and the lazily loaded map draws it. Latitudes and longitudes are WGS84 degrees.
 */

export interface LatLon {
  latitude: number;
  longitude: number;
}

/**
 * What a marker stands for, and so its look: pickups green, dropoffs red, extra stops
 * grey, trucks as arrows in the primary colour oriented by `heading`; 'special' is the
 * specification's 'specialMarker', 'place' a chosen place (a pin in the primary colour).
 */
export type MarkerKind = 'pickup' | 'dropoff' | 'stop' | 'truck' | 'special' | 'place';

export interface MapMarker extends LatLon {
  id: string;
  kind: MarkerKind;
  /** A short text drawn beside the marker (a price, a city). */
  label?: string;
  /** The marker's accessible and hover text. */
  title?: string;
  /** Degrees clockwise from north, for trucks. */
  heading?: number | null;
  /** Drawn above the others and larger. */
  highlighted?: boolean;
}

export interface MapViewProps {
  /** The map's accessible name (the information is also given as text beside it). */
  ariaLabel: string;
  markers?: readonly MapMarker[];
  /** A line through these points, oldest first, fading towards the oldest (a truck's trail). */
  trail?: readonly LatLon[];
  /** The view when there is nothing to fit (or `fit` is false). */
  center?: LatLon;
  zoom?: number;
  /** Fit the view to the markers and the trail (default true when there are any). */
  fit?: boolean;
  /** Most zoom when fitting (a single marker would otherwise fill the screen). */
  maxFitZoom?: number;
  height?: number | string;
  className?: string;
  onMarkerClick?: (marker: MapMarker) => void;
  /** Optional XYZ tile URL (`MAP_TILE_URL`) drawn under the states; without it, the offline states only. */
  tileUrl?: string | null;
}

/** The geographic centre of the contiguous United States (the load form's default view). */
export const USA_CENTER: LatLon = { latitude: 39.8283, longitude: -98.5795 };
/** The specification's default map centre (section 9). */
export const DEFAULT_MAP_CENTER: LatLon = { latitude: 44.5, longitude: -89.5 };
/** The specification's zooms: 4 by default, 20 once a place is chosen (section 9). */
export const DEFAULT_ZOOM = 4;
export const PLACE_ZOOM = 20;

export const isPlaced = (point: Partial<LatLon> | null | undefined): point is LatLon =>
  Boolean(point) &&
  Number.isFinite(point!.latitude) &&
  Number.isFinite(point!.longitude) &&
  !(point!.latitude === 0 && point!.longitude === 0);
