/**
 * The reusable map: `MapPanel` (lazy OpenLayers with the offline US states base map, markers and a
 * trail) and its data types. Import from here; OpenLayers itself loads only when a map renders.
 */
export { MapPanel, type MapPanelProps } from './MapPanel.tsx';
export { DEFAULT_MAP_CENTER, DEFAULT_ZOOM, isPlaced, PLACE_ZOOM, USA_CENTER } from './mapTypes.ts';
export type { LatLon, MapMarker, MapViewProps, MarkerKind } from './mapTypes.ts';
import './map.css';
