import type { ClientSettings } from '../../../../domain/contracts/platform.contract.ts';
import { apiGet } from '../../api/http.ts';

export type MapSettings = ClientSettings['map'];

/** The bundled US states only: what a map draws when the server names no tiles or cannot be asked. */
export const OFFLINE_MAP: MapSettings = { tileUrl: null, attribution: null };

let settings: Promise<MapSettings> | null = null;

/**
 * The server's map configuration (MAP_TILE_URL, MAP_ATTRIBUTION), asked once per page load when the
 * first map loads; a failure falls back to the offline states rather than leaving the map blank.
 */
export function mapSettings(): Promise<MapSettings> {
  settings ??= apiGet<ClientSettings>('/client-settings', { auth: false }).then(
    (answer) => answer.map,
    () => OFFLINE_MAP,
  );
  return settings;
}
