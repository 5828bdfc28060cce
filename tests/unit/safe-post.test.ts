import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { BlockedAddressError, isPrivateAddress, safePost } from "~/features/webhooks/safe-post.server.ts";

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
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "172.32.0.1"]) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
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
