/** The offer's stream id, one per carrier organization and load, derived by a name-based UUID. */
import { createHash } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An RFC 4122 name-based UUID (version 5, SHA-1): the same name in the same namespace gives the same id. */
export const uuidV5 = (name: string, namespace: string): string => {
  if (!UUID.test(namespace)) throw new Error(`Not a UUID: ${namespace}`);
  const bytes = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** Fixed for good: changing it would give every existing carrier a second offer on its loads. */
const OFFER_NAMESPACE = '3f1d7c62-9b4e-4a0c-8e25-6d0b9c4f7a13';

/** The one offer stream of a carrier organization on a load, so that a second submit finds the first. */
export const offerIdFor = (loadId: string, carrierOrganizationId: string): string =>
  uuidV5(`${loadId}:${carrierOrganizationId}`, OFFER_NAMESPACE);
