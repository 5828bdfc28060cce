import { describe, expect, it } from "vitest";
import { clientAddress } from "../../app/lib/client-address.server.ts";

describe("clientAddress", () => {
  it("given no trusted proxy, should use the socket address and ignore X-Forwarded-For", () => {
    expect(clientAddress("127.0.0.1", "203.0.113.9", false)).toBe("127.0.0.1");
  });

  it("given a trusted proxy, should use the last X-Forwarded-For hop, the one the proxy appended", () => {
    expect(clientAddress("127.0.0.1", "198.51.100.1, 203.0.113.9", true)).toBe("203.0.113.9");
  });

  it("given an IPv4 client on a dual-stack socket, should count it by its IPv4 address", () => {
    expect(clientAddress("::ffff:192.0.2.7", null, true)).toBe("192.0.2.7");
  });
});
