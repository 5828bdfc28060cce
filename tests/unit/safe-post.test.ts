import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { networkInterfaces } from "node:os";
import { describe, expect, it } from "vitest";
import { BlockedAddressError, DeliveryFailure, embeddedIpv4, isBlockedAddress, safePost } from "~/features/webhooks/safe-post.server.ts";

/** The SSRF guard of webhook deliveries: which addresses are refused, and that a name resolving to one is refused when connecting. */
describe("webhook addresses", () => {
  it("refuses loopback, private, link-local, CGNAT and IPv4-mapped private addresses, and lets public ones through", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
    ]) {
      expect(isBlockedAddress(address), address).toBe(true);
    }
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "172.32.0.1"]) {
      expect(isBlockedAddress(address), address).toBe(false);
    }
  });

  it("refuses the other special-purpose ranges of IANA's registries", () => {
    for (const address of [
      "0.1.2.3", // this network
      "100.127.255.254", // CGNAT, its last address
      "192.0.0.8", // IETF protocol assignments
      "192.0.2.10", // TEST-NET-1
      "198.18.0.1", // benchmarking
      "198.19.255.255",
      "198.51.100.7", // TEST-NET-2
      "203.0.113.99", // TEST-NET-3
      "224.0.0.251", // multicast
      "239.255.255.250",
      "240.0.0.1", // reserved
      "255.255.255.255", // broadcast
      "::", // unspecified
      "::a00:5", // IPv4-compatible (deprecated)
      "100::1", // discard-only
      "2001:db8::1", // documentation
      "2001:0:4136:e378:8000:63bf:3fff:fdd2", // Teredo
      "fc00::1", // unique local
      "fdff:ffff::1",
      "fe80::1%eth0", // link-local with its zone
      "febf::1",
      "ff02::1", // multicast
      "ff0e::1",
    ]) {
      expect(isBlockedAddress(address), address).toBe(true);
    }
    for (const address of ["100.128.0.1", "192.0.3.1", "198.20.0.1", "203.0.114.1", "223.255.255.255", "2a00:1450:4001::1", "2001:4860::8888"]) {
      expect(isBlockedAddress(address), address).toBe(false);
    }
  });

  it("judges an IPv6 address that carries an IPv4 one by that address: mapped (in either notation), NAT64 and 6to4", () => {
    expect(embeddedIpv4("::ffff:a00:5")).toBe("10.0.0.5");
    expect(embeddedIpv4("64:ff9b::c0a8:101")).toBe("192.168.1.1");
    expect(embeddedIpv4("2002:7f00:1::")).toBe("127.0.0.1");
    expect(embeddedIpv4("2606:4700::1111")).toBeNull();
    // The URL parser writes a mapped address in hex: `http://[::ffff:10.0.0.5]/` has the host `[::ffff:a00:5]`.
    expect(new URL("http://[::ffff:10.0.0.5]/").hostname).toBe("[::ffff:a00:5]");
    for (const address of [
      "::ffff:10.0.0.5",
      "::ffff:a00:5",
      "::ffff:a9fe:a9fe", // 169.254.169.254
      "::FFFF:7F00:1",
      "64:ff9b::10.1.2.3",
      "64:ff9b::a01:203",
      "64:ff9b::7f00:1",
      "64:ff9b:1::8.8.8.8", // local-use NAT64: refused whatever it carries
      "2002:c0a8:101::1", // 6to4 of 192.168.1.1
      "2002:a00:1::",
      "2002:a9fe:a9fe::1",
    ]) {
      expect(isBlockedAddress(address), address).toBe(true);
    }
    for (const address of ["::ffff:8.8.8.8", "::ffff:808:808", "64:ff9b::8.8.8.8", "2002:808:808::1"]) {
      expect(isBlockedAddress(address), address).toBe(false);
    }
  });

  it("refuses this machine's own addresses, the public ones too (they reach the service itself)", () => {
    const own = Object.values(networkInterfaces())
      .flatMap((entries) => entries ?? [])
      .map((entry) => entry.address);
    expect(own.length).toBeGreaterThan(0);
    for (const address of own) expect(isBlockedAddress(address), address).toBe(true);
  });

  it("refuses a name that resolves to loopback when connecting, and posts to it when allowed", async () => {
    const server = createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://localhost:${(server.address() as AddressInfo).port}/hook`;
    try {
      await expect(safePost(url, "{}", {}, { allowPrivate: false, timeoutMs: 2000 })).rejects.toBeInstanceOf(BlockedAddressError);
      await expect(safePost(url.replace("localhost", "127.0.0.1"), "{}", {}, { allowPrivate: false, timeoutMs: 2000 })).rejects.toBeInstanceOf(
        BlockedAddressError,
      );
      expect(await safePost(url.replace("localhost", "127.0.0.1"), "{}", {}, { allowPrivate: true, timeoutMs: 2000 })).toEqual({ status: 204 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("says why a post failed in generic words: no address, port or resolver result", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const reasonOf = (url: string, timeoutMs = 2000) =>
      safePost(url, "{}", {}, { allowPrivate: true, timeoutMs }).then(
        () => "answered",
        (error: unknown) => (error instanceof DeliveryFailure ? error.message : `not generic: ${String(error)}`),
      );
    // A closed port: "connect ECONNREFUSED 127.0.0.1:<port>" in Node's words.
    expect(await reasonOf(`http://127.0.0.1:${port}/`)).toBe("connection failed");
    // A name that does not resolve: "getaddrinfo ENOTFOUND …".
    expect(await reasonOf("http://no-such-host.invalid/")).toBe("address refused");
    // A receiver that takes the connection and never answers.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      expect(await reasonOf(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, 200)).toBe("timed out");
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
    // A private address, refused: the same words whether given as an address or reached through a name.
    const refused = await safePost("http://10.0.0.5:8080/", "{}", {}, { allowPrivate: false, timeoutMs: 2000 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BlockedAddressError);
    expect((refused as Error).message).toBe("address refused");
  });

  it("opens a connection of its own for each post: never a kept-alive socket the receiver may be closing", async () => {
    // Reused, an idle socket the receiver closed a moment before failed the delivery ("connection
    // failed"), to be tried again 5 s later; and a reused socket skips the address check of a new one.
    const server = createServer((request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(204).end());
    });
    let connections = 0;
    server.on("connection", () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      for (let i = 0; i < 3; i++) expect(await safePost(url, "{}", {}, { allowPrivate: true, timeoutMs: 2000 })).toEqual({ status: 204 });
      expect(connections).toBe(3);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("does not follow a redirect", async () => {
    const server = createServer((_request, response) => response.writeHead(302, { location: "http://169.254.169.254/" }).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      expect(await safePost(`http://127.0.0.1:${port}/`, "{}", {}, { allowPrivate: true, timeoutMs: 2000 })).toEqual({ status: 302 });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
