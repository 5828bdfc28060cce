import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import http from "node:http";
import https from "node:https";
import { BlockList, isIP } from "node:net";

/**
 * Posting to an address an administrator typed, without letting it reach inside our network
 * (SSRF): loopback, private, link-local, carrier-grade NAT, multicast and unspecified addresses
 * are refused, for a literal IP and for every address a name resolves to. The check is the
 * socket's own DNS lookup, so the address connected to is the one checked (a name cannot resolve
 * to a public address for the check and a private one for the connection). No redirect is
 * followed; the whole exchange has a short timeout.
 */

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** Whether an IP address is one a webhook may not reach (an IPv4-mapped IPv6 address counts as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, "ipv4");
  const family = isIP(address);
  if (family === 0) return false;
  return blocked.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** A URL's host when it is a literal IP address (brackets of IPv6 removed), else null. */
export function literalAddress(url: URL): string | null {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return isIP(host) ? host : null;
}

export class BlockedAddressError extends Error {}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup, refusing names that resolve to any blocked address. */
function checkedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback) {
  dnsLookup(hostname, { all: true }, (error, addresses) => {
    if (error) return callback(error, "");
    const refused = addresses.find((entry) => isPrivateAddress(entry.address));
    if (refused) return callback(new BlockedAddressError(`${hostname} resolves to a private address`), "");
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}

export type PostResult = { status: number };

export function safePost(
  target: string,
  body: string,
  headers: Record<string, string>,
  options: { allowPrivate: boolean; timeoutMs: number },
): Promise<PostResult> {
  return new Promise((resolve, reject) => {
    const url = new URL(target);
    const literal = literalAddress(url);
    if (!options.allowPrivate && literal && isPrivateAddress(literal)) {
      reject(new BlockedAddressError(`${literal} is a private address`));
      return;
    }
    const client = url.protocol === "https:" ? https : http;
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        timeout: options.timeoutMs,
        ...(options.allowPrivate ? {} : { lookup: checkedLookup as never }),
      },
      (response) => {
        // The answer's body is not needed: read and dropped, so the socket can close.
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
        response.on("error", reject);
      },
    );
    // The whole exchange, not only a quiet socket, has to end in time.
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on("close", () => clearTimeout(deadline));
    request.on("timeout", () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on("error", reject);
    request.end(body);
  });
}
