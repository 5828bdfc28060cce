import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";
import { networkInterfaces } from "node:os";

/**
 * Posting to an address an administrator typed, without letting it reach inside our network
 * (SSRF): loopback, private, link-local, carrier-grade NAT, multicast, unspecified, documentation,
 * benchmarking and the other special-purpose ranges of IANA's registries that are not the public
 * internet are refused, and so are the addresses of this machine's own network interfaces (its
 * public address reaches the service itself). An IPv6 address that carries an IPv4 one (mapped,
 * NAT64, 6to4) is judged by that IPv4 address too. The check applies to a literal IP and to every
 * address a name resolves to, and it is the socket's own DNS lookup, so the address connected to is
 * the one checked (a name cannot resolve to a public address for the check and a private one for
 * the connection). No redirect is followed; the whole exchange has a short timeout.
 *
 * What a failure says is generic (`DeliveryFailure`): an administrator reads it in the delivery
 * log, and it must not tell them what a name resolved to or which ports are open.
 */

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and 255.255.255.255 (broadcast)
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible addresses
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard-only
  ["2001::", 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation
  ["5f00::", 16], // SRv6 SIDs
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["fec0::", 10], // site-local (deprecated)
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** The 8 groups of an IPv6 address (zone id dropped, a dotted IPv4 tail read as two groups), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/%.*$/, "").toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (dotted) {
    if (isIP(dotted) !== 4) return null;
    const [a, b, c, d] = dotted.split(".").map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const part = (half: string | undefined) => (half ? half.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const groups = halves.length === 2 ? [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail] : head;
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;

/**
 * The IPv4 address an IPv6 address stands for or carries: IPv4-mapped (`::ffff:a.b.c.d`, also
 * written in hex), NAT64 (`64:ff9b::a.b.c.d`) and 6to4 (`2002:AABB:CCDD::`). Null for the others.
 */
export function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (!groups) return null;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) return ipv4Of(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4Of(g6, g7);
  if (g0 === 0x2002) return ipv4Of(g1, g2);
  return null;
}

/** This machine's own addresses, from its network interfaces, read again every minute. */
let ownAddresses: { list: BlockList; readAt: number } | null = null;
const OWN_ADDRESSES_MS = 60_000;

function isOwnAddress(address: string, family: "ipv4" | "ipv6") {
  if (!ownAddresses || Date.now() - ownAddresses.readAt > OWN_ADDRESSES_MS) {
    const list = new BlockList();
    for (const entries of Object.values(networkInterfaces())) {
      for (const entry of entries ?? []) list.addAddress(entry.address.replace(/%.*$/, ""), entry.family === "IPv6" ? "ipv6" : "ipv4");
    }
    ownAddresses = { list, readAt: Date.now() };
  }
  return ownAddresses.list.check(address, family);
}

/**
 * Whether an IP address is one a webhook may not reach: a special-purpose range, an address of
 * this machine, or an IPv6 address whose embedded IPv4 address is one of those.
 */
export function isBlockedAddress(address: string): boolean {
  const plain = address.replace(/%.*$/, "");
  const family = isIP(plain);
  if (family === 0) return false;
  if (family === 4) return blocked.check(plain, "ipv4") || isOwnAddress(plain, "ipv4");
  const embedded = embeddedIpv4(plain);
  if (embedded && isBlockedAddress(embedded)) return true;
  return blocked.check(plain, "ipv6") || isOwnAddress(plain, "ipv6");
}

/** A URL's host when it is a literal IP address (brackets of IPv6 removed), else null. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return isIP(host) ? host : null;
}

/**
 * Why a post failed, in words that reveal nothing of our network: `address refused` (the address
 * or what the name resolved to is not one a webhook may reach, or the name did not resolve: the
 * two are told apart by no one, so the log cannot probe which internal names exist), `timed out`
 * (no whole answer in time), `connection failed` (refused, reset, or a TLS failure).
 */
export type FailureReason = "address refused" | "timed out" | "connection failed";

export class DeliveryFailure extends Error {
  constructor(readonly reason: FailureReason) {
    super(reason);
  }
}

export class BlockedAddressError extends DeliveryFailure {
  constructor() {
    super("address refused");
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup, refusing names that do not resolve, and (unless allowed) those that resolve to any blocked address. */
const checkedLookup =
  (allowPrivate: boolean) =>
  (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true, ...(options.family ? { family: options.family } : {}) }, (error, addresses) => {
      if (error || addresses.length === 0) return callback(new BlockedAddressError(), "");
      if (!allowPrivate && addresses.some((entry) => isBlockedAddress(entry.address))) return callback(new BlockedAddressError(), "");
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };

export type PostResult = { status: number };

/** Posts `body`; answers the status of the answer, or rejects with a DeliveryFailure and nothing more specific. */
export function safePost(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const url = new URL(target);
    const literal = literalAddress(url);
    if (!options.allowPrivate && literal && isBlockedAddress(literal)) {
      reject(new BlockedAddressError());
      return;
    }
    const fail = (error: unknown) => reject(error instanceof DeliveryFailure ? error : new DeliveryFailure("connection failed"));
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        timeout: options.timeoutMs,
        lookup: checkedLookup(options.allowPrivate) as never,
        // A connection of its own, closed after the answer. Node's global agent keeps sockets
        // alive: a delivery sent on one the receiver was closing failed ("connection failed") and
        // waited 5 s for its retry, and a reused socket is not looked up (and checked) again.
        agent: false,
      },
      (response) => {
        // The answer's body is not needed: read and dropped, so the socket can close.
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
        response.on("error", fail);
      },
    );
    // The whole exchange, not only a quiet socket, has to end in time.
    const deadline = setTimeout(() => request.destroy(new DeliveryFailure("timed out")), options.timeoutMs);
    request.on("close", () => clearTimeout(deadline));
    request.on("timeout", () => request.destroy(new DeliveryFailure("timed out")));
    request.on("error", fail);
    request.end(body);
  });
}
