/**
 * The address rate limits are counted against. Without TRUST_PROXY it is the TCP peer, which a
 * client cannot forge. Behind a reverse proxy (TRUST_PROXY=true) it is the last X-Forwarded-For
 * entry: the one our own proxy appended, not one the client wrote itself.
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | null, trustProxy: boolean): string {
  if (trustProxy && forwardedFor) {
    const hops = forwardedFor
      .split(",")
      .map((hop) => hop.trim())
      .filter(Boolean);
    const last = hops.at(-1);
    if (last) return normalize(last);
  }
  return normalize(socketAddress ?? "unknown");
}

/** IPv4 clients of a dual-stack socket appear as ::ffff:1.2.3.4; count them as 1.2.3.4. */
function normalize(address: string): string {
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}
