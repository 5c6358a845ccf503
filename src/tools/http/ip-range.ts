// IPv4 and IPv6 addresses and CIDR ranges: strict parsing and prefix matching, as numbers; no DNS, no I/O.

export type IpFamily = 4 | 6;

export interface IpAddress {
  readonly family: IpFamily;
  /** The address as an unsigned integer: 32 bits for IPv4, 128 for IPv6. */
  readonly value: bigint;
}

export interface IpRange {
  readonly family: IpFamily;
  /** The first address of the range (host bits cleared). */
  readonly base: bigint;
  readonly prefix: number;
}

const BITS: Readonly<Record<IpFamily, number>> = { 4: 32, 6: 128 };
const DECIMAL_OCTET = /^(?:0|[1-9][0-9]{0,2})$/; // no leading zeros: "010" means 8 to some parsers and 10 to others
const HEX_GROUP = /^[0-9A-Fa-f]{1,4}$/;
const PREFIX = /^(?:0|[1-9][0-9]{0,2})$/;

/** Dotted-decimal IPv4 ("192.0.2.1") only: the shorthand forms (hex, octal, fewer parts) are refused. */
export function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!DECIMAL_OCTET.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = (value << 8n) | BigInt(octet);
  }
  return value;
}

/** IPv6 in any RFC 4291 text form ("::1", "fe80::1%eth0", "::ffff:192.0.2.1"); a zone id is accepted and ignored. */
export function parseIpv6(text: string): bigint | undefined {
  const zone = text.indexOf('%');
  if (zone === text.length - 1) return undefined;
  let body = zone === -1 ? text : text.slice(0, zone);
  if (body.includes('.')) {
    // A trailing dotted IPv4 part stands for the last two groups.
    const last = body.lastIndexOf(':');
    const v4 = parseIpv4(body.slice(last + 1));
    if (last === -1 || v4 === undefined) return undefined;
    body = `${body.slice(0, last + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (half: string): string[] => (half === '' ? [] : half.split(':'));
  const head = groupsOf(halves[0] ?? '');
  const tail = halves.length === 2 ? groupsOf(halves[1] ?? '') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  let value = 0n;
  for (const group of groups) {
    if (!HEX_GROUP.test(group)) return undefined;
    value = (value << 16n) | BigInt(parseInt(group, 16));
  }
  return value;
}

/** An IPv4 or IPv6 address (without brackets), or undefined when the text is neither. */
export function parseIp(text: string): IpAddress | undefined {
  if (text.includes(':')) {
    const value = parseIpv6(text);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseIpv4(text);
  return value === undefined ? undefined : { family: 4, value };
}

/** "10.0.0.0/8", "fc00::/7", or a single address (a range of one). Host bits after the prefix are cleared. */
export function parseCidr(text: string): IpRange | undefined {
  const slash = text.indexOf('/');
  const addressText = slash === -1 ? text : text.slice(0, slash);
  if (addressText.includes('%')) return undefined; // a zone belongs to an interface, not to a range
  const address = parseIp(addressText);
  if (address === undefined) return undefined;
  const bits = BITS[address.family];
  let prefix = bits;
  if (slash !== -1) {
    const prefixText = text.slice(slash + 1);
    if (!PREFIX.test(prefixText)) return undefined;
    prefix = Number(prefixText);
    if (prefix > bits) return undefined;
  }
  const shift = BigInt(bits - prefix);
  return { family: address.family, base: (address.value >> shift) << shift, prefix };
}

/** True when the address lies in the range (same family, same leading `prefix` bits). */
export function rangeContains(range: IpRange, address: IpAddress): boolean {
  if (range.family !== address.family) return false;
  const shift = BigInt(BITS[range.family] - range.prefix);
  return address.value >> shift === range.base >> shift;
}

/** True when the range holds exactly one address. */
export const isSingleAddress = (range: IpRange): boolean => range.prefix === BITS[range.family];

const carrier = (cidr: string, offset: bigint) => ({ range: parseCidr(cidr) as IpRange, offset }); // literals below

/** IPv6 ranges that carry an IPv4 address, and how far from the right it sits. */
const IPV4_CARRIERS = [
  carrier('::ffff:0:0/96', 0n), // IPv4-mapped
  carrier('::/96', 0n), // IPv4-compatible (deprecated, but some stacks still route it)
  carrier('64:ff9b::/96', 0n), // NAT64 well-known prefix
  carrier('2002::/16', 80n), // 6to4: the IPv4 address follows the prefix
];

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if it carries one. */
export function embeddedIpv4(address: IpAddress): IpAddress | undefined {
  if (address.family !== 6) return undefined;
  const carrier = IPV4_CARRIERS.find(({ range }) => rangeContains(range, address));
  return carrier === undefined
    ? undefined
    : { family: 4, value: (address.value >> carrier.offset) & 0xffff_ffffn };
}

/** Dotted-decimal text of an IPv4 address. */
export function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}
