import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';

/**
 * A small FMCSA Licensing & Insurance carrier file (authority shape, see authorityFile.ts): the demo
 * carriers' DOT and MC numbers as active with insurance on file, one inactive and one revoked
 * carrier. The demo seed imports it; the specs use it as their fixture.
 */
export const DEMO_AUTHORITY_FILE = new URL('./demoAuthority.csv', import.meta.url);

export const demoAuthorityFile = (): Readable => createReadStream(DEMO_AUTHORITY_FILE);
