import { describe, expect, it } from "vitest";
import { hashingCost, hashPassword, PRODUCTION_COST, verifyPassword } from "../../app/lib/auth/password.server.ts";

describe("password hashing cost", () => {
  it("given production or development, should hash at OWASP's cost (scrypt N=2^17, r=8, p=1); only the test suite hashes cheaper", () => {
    expect(hashingCost("production")).toEqual({ N: 131072, r: 8, p: 1 });
    expect(hashingCost("development")).toEqual(PRODUCTION_COST);
    expect(hashingCost("test").N).toBeLessThan(PRODUCTION_COST.N);
  });

  it("given the production cost, should store it in the hash and verify with it", async () => {
    const hash = await hashPassword("a long pass phrase", PRODUCTION_COST);
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(await verifyPassword("a long pass phrase", hash)).toBe(true);
    expect(await verifyPassword("another phrase", hash)).toBe(false);
  });
});
