/**
 * Where a webhook may point (SECURITY.md "Webhooks"): https only, and never at a private, loopback,
 * link-local or otherwise non-public address, so an endpoint cannot make the server reach into its
 * own network. The name is resolved once per attempt, every address it resolves to is checked, and
 * the request connects to the checked address (a name that resolves differently a moment later,
 * DNS rebinding, gains nothing). With WEBHOOK_ALLOW_PRIVATE=1 (development, tests) private and
 * loopback addresses are allowed, and plain http to them.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const nonPublic = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  nonPublic.addSubnet(network, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address that `isIP` accepted (a trailing dotted IPv4 is two groups). */
function ipv6Groups(address: string): number[] {
  const side = (text: string): number[] =>
    text === ''
      ? []
      : text.split(':').flatMap((part) => {
          if (!part.includes('.')) return [parseInt(part, 16)];
          const [a, b, c, d] = part.split('.').map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head, tail] = address.split('::') as [string, string | undefined];
  if (tail === undefined) return side(head);
  const left = side(head);
  const right = side(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

const ipv4Of = (high: number, low: number) =>
  `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 addresses an IPv6 address carries, by the forms that reach them: IPv4-compatible
 * (::/96), IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), 6to4 (2002::/16, bits
 * 16-47), NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48, the last 32 bits), Teredo
 * (2001::/32: the server in bits 32-63, the client inverted in the last 32) and ISATAP
 * (…:0:5efe:a.b.c.d, also with the universal bit, 200:5efe). Each must be public too: otherwise
 * `[::127.0.0.1]` or `[2002:7f00:1::]` would reach the loopback through a translator or a tunnel.
 * Some of these prefixes are refused whole already (Teredo inside 2001::/23, the NAT64 well-known
 * prefix); the embedded address is checked all the same, so the rule does not hang on that list.
 */
function embeddedIpv4(address: string): string[] {
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((group) => group === 0);
  const found: string[] = [];
  if (zeros(0, 6)) found.push(ipv4Of(g[6]!, g[7]!));
  if (zeros(0, 5) && g[5] === 0xffff) found.push(ipv4Of(g[6]!, g[7]!));
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) found.push(ipv4Of(g[6]!, g[7]!));
  if (g[0] === 0x2002) found.push(ipv4Of(g[1]!, g[2]!));
  if (g[0] === 0x64 && g[1] === 0xff9b && (zeros(2, 6) || g[2] === 1))
    found.push(ipv4Of(g[6]!, g[7]!));
  if (g[0] === 0x2001 && g[1] === 0)
    found.push(ipv4Of(g[2]!, g[3]!), ipv4Of(~g[6]! & 0xffff, ~g[7]! & 0xffff));
  if ((g[4] === 0 || g[4] === 0x200) && g[5] === 0x5efe) found.push(ipv4Of(g[6]!, g[7]!));
  return found;
}

/** Whether an IP address is private, loopback, link-local, reserved or multicast (an IPv6 address also by any IPv4 it embeds). */
export function isNonPublicAddress(address: string): boolean {
  // A scoped IPv6 address (fe80::1%eth0) is link-local by its scope alone.
  if (address.includes('%')) return true;
  const family = isIP(address);
  try {
    if (family === 4) return nonPublic.check(address, 'ipv4');
    if (family !== 6) return true;
    return (
      nonPublic.check(address, 'ipv6') ||
      embeddedIpv4(address).some((ipv4) => nonPublic.check(ipv4, 'ipv4'))
    );
  } catch {
    return true;
  }
}

export class WebhookAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookAddressError';
  }
}

export type ResolvedTarget = { url: URL; address: string; family: 4 | 6 };
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** The URL's shape alone: an absolute http(s) URL without credentials. Throws WebhookAddressError with the reason. */
export function parseWebhookUrl(text: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new WebhookAddressError('Enter a full URL starting with https://');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:'))
    throw new WebhookAddressError('The URL must start with https://');
  if (url.username || url.password)
    throw new WebhookAddressError('The URL must not carry a user name or password');
  if (!url.hostname) throw new WebhookAddressError('Enter a full URL starting with https://');
  return url;
}

/**
 * Resolves the URL's host and checks every address: the address to connect to, or a
 * WebhookAddressError saying why not. Plain http needs WEBHOOK_ALLOW_PRIVATE=1 and a private or
 * loopback address.
 */
export async function resolveWebhookTarget(
  text: string,
  allowPrivate: boolean,
  resolver: Resolver = systemResolver,
): Promise<ResolvedTarget> {
  const url = parseWebhookUrl(text, allowPrivate);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await resolver(host);
    } catch {
      throw new WebhookAddressError(`The host name ${host} could not be resolved`);
    }
  }
  if (addresses.length === 0)
    throw new WebhookAddressError(`The host name ${host} could not be resolved`);
  const privateOnes = addresses.filter(({ address }) => isNonPublicAddress(address));
  if (!allowPrivate && privateOnes.length > 0)
    throw new WebhookAddressError(
      'The URL must point to a public address, not a private, loopback or link-local one',
    );
  if (url.protocol === 'http:' && privateOnes.length !== addresses.length)
    throw new WebhookAddressError('The URL must start with https://');
  const [first] = addresses;
  return { url, address: first!.address, family: first!.family === 6 ? 6 : 4 };
}
