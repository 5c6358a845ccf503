// Which destinations http_request refuses (loopback, private, link-local, metadata…) and the operator's exceptions.

import {
  embeddedIpv4,
  formatIpv4,
  isSingleAddress,
  parseCidr,
  rangeContains,
  type IpAddress,
  type IpRange,
} from './ip-range.js';

const METADATA = 'a cloud metadata address';

const blocked = (cidr: string, reason: string) => ({ range: parseCidr(cidr) as IpRange, reason }); // literals below

/** Checked in order: the specific entries (metadata) come before the ranges that contain them. */
const BLOCKED = [
  blocked('169.254.169.254', METADATA),
  blocked('fd00:ec2::254', METADATA),
  blocked('0.0.0.0/8', 'an unspecified ("this network") address'),
  blocked('10.0.0.0/8', 'a private address'),
  blocked('100.64.0.0/10', 'a carrier-grade NAT (shared) address'),
  blocked('127.0.0.0/8', 'a loopback address'),
  blocked('169.254.0.0/16', 'a link-local address'),
  blocked('172.16.0.0/12', 'a private address'),
  blocked('192.0.0.0/24', 'a reserved (IETF protocol) address'),
  blocked('192.168.0.0/16', 'a private address'),
  blocked('224.0.0.0/4', 'a multicast address'),
  blocked('240.0.0.0/4', 'a reserved or broadcast address'),
  blocked('::/128', 'an unspecified address'),
  blocked('::1/128', 'a loopback address'),
  blocked('fc00::/7', 'a private (unique local) address'),
  blocked('fe80::/10', 'a link-local address'),
  blocked('fec0::/10', 'a private (site-local) address'),
  blocked('ff00::/8', 'a multicast address'),
];

/** Host names refused whatever they resolve to (unless allowlisted by name). */
export const METADATA_HOSTNAMES: ReadonlySet<string> = new Set(['metadata.google.internal', 'metadata.goog']);

export interface Verdict {
  reason: string;
  metadata: boolean;
}

/** Why an address may not be reached, or undefined for a public address. */
export function refusalFor(address: IpAddress): Verdict | undefined {
  const direct = BLOCKED.find(({ range }) => rangeContains(range, address));
  if (direct !== undefined) return { reason: direct.reason, metadata: direct.reason === METADATA };
  const inner = embeddedIpv4(address);
  if (inner === undefined) return undefined;
  const verdict = refusalFor(inner);
  return verdict === undefined
    ? undefined
    : { ...verdict, reason: `${verdict.reason} (IPv4 ${formatIpv4(inner.value)} inside IPv6)` };
}

const HOSTNAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** A host name as compared: lower case, without the trailing dot of a fully qualified name. */
export const normaliseHostname = (hostname: string): string => hostname.toLowerCase().replace(/\.$/, '');

/** The operator's exceptions: host names (exact) and address ranges (an address is a range of one). */
export class AllowHosts {
  readonly #names: ReadonlySet<string>;
  readonly #ranges: readonly IpRange[];

  private constructor(names: ReadonlySet<string>, ranges: readonly IpRange[]) {
    this.#names = names;
    this.#ranges = ranges;
  }

  /** Why an entry is not usable (completing `entry "x" …`), or undefined when it is. */
  static problem(entry: string): string | undefined {
    if (parseCidr(entry.replace(/^\[(.*)\]$/, '$1')) !== undefined) return undefined;
    if (HOSTNAME.test(normaliseHostname(entry))) return undefined;
    return 'must be a host name (like "api.example.com"), an IP address (like "10.0.0.5") or a CIDR range (like "10.0.0.0/8" or "fd00::/8")';
  }

  /** Entries already checked with `problem`. */
  static from(entries: readonly string[]): AllowHosts {
    const names = new Set<string>();
    const ranges: IpRange[] = [];
    for (const entry of entries) {
      const range = parseCidr(entry.replace(/^\[(.*)\]$/, '$1'));
      if (range !== undefined) ranges.push(range);
      else names.add(normaliseHostname(entry));
    }
    return new AllowHosts(names, ranges);
  }

  hasName(hostname: string): boolean {
    return this.#names.has(normaliseHostname(hostname));
  }

  /** A refused address is allowed by a range containing it; a metadata address only by its exact entry. */
  permits(address: IpAddress, verdict: Verdict): boolean {
    return this.#ranges.some(
      (range) => rangeContains(range, address) && (!verdict.metadata || isSingleAddress(range)),
    );
  }
}
