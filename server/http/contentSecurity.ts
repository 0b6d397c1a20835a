/**
 * The Content-Security-Policy directives: the page's own origin only, plus exactly the outside
 * origins the configuration brings in — the map tiles of MAP_TILE_URL and Contentful's image host
 * when the landing content comes from Contentful.
 */
import type { Config } from '../config.ts';

/** Contentful serves the images of its assets from here (`//images.ctfassets.net/…`). */
export const CONTENTFUL_IMAGES = 'https://images.ctfassets.net';

/** The origin of an XYZ template (`https://{a-c}.tile.example.com/{z}/{x}/{y}.png` keeps its subdomain placeholder as a wildcard). */
export function tileOrigin(template: string): string {
  const host = /^(https?:\/\/)([^/?#]+)/i.exec(template);
  if (!host) return '';
  // A {s} or {a-c} subdomain placeholder becomes the CSP wildcard for one label.
  return `${host[1]!.toLowerCase()}${host[2]!.replace(/^\{[^}]+\}\./, '*.').toLowerCase()}`;
}

export function contentSecurityDirectives(
  config: Pick<Config, 'mapTileUrl' | 'contentfulSpaceId' | 'contentfulAccessToken'>,
) {
  const images = ["'self'", 'data:', 'blob:'];
  if (config.mapTileUrl) images.push(tileOrigin(config.mapTileUrl));
  if (config.contentfulSpaceId && config.contentfulAccessToken) images.push(CONTENTFUL_IMAGES);
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    // PrimeReact injects component styles at run time.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: images,
    connectSrc: ["'self'", 'ws:', 'wss:'],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
  };
}
