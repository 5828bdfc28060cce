import { createCookie } from "react-router";
import { describe, expect, it } from "vitest";
import { readSignedCookie } from "../../app/lib/auth/signed-cookie.server.ts";

/**
 * The session and CSRF cookies are written by React Router's createCookie and read by
 * readSignedCookie (node:crypto): both must agree on every cookie, and refuse the same ones.
 */
const secret = "a-secret-of-the-right-length-0123456789";

async function written(value: unknown, secrets = [secret], name = "session") {
  const setCookie = await createCookie(name, { secrets }).serialize(value);
  return setCookie.split(";")[0]!;
}

describe("readSignedCookie", () => {
  it("given cookies createCookie signed, should read what createCookie reads, among other cookies", async () => {
    for (const value of ["a-random-token_-+/=", "Zoë 王小明 محمد 👍", { nested: [1, "two"] }]) {
      const header = `other=1; ${await written(value)}; last="x"`;
      expect(readSignedCookie(header, "session", [secret])).toEqual(value);
      expect(await createCookie("session", { secrets: [secret] }).parse(header)).toEqual(value);
    }
    // An older secret still reads (rotation), the first one that matches wins.
    expect(readSignedCookie(await written("rotated", ["old-secret"]), "session", [secret, "old-secret"])).toBe("rotated");
  });

  it("given a tampered, foreign, unsigned, missing or malformed cookie, should answer null", async () => {
    const good = (await written("token")).split("=").slice(1).join("=");
    const [value, signature] = [good.slice(0, good.lastIndexOf(".")), good.slice(good.lastIndexOf(".") + 1)];
    const forged = Buffer.from(JSON.stringify("admin")).toString("base64");
    for (const header of [
      `session=${forged}.${signature}`,
      `session=${value}.${signature.slice(0, -2)}AA`,
      await written("token", ["another-secret"]),
      `session=${value}`,
      `session=.${signature}`,
      "session=",
      "other=1",
      "",
      `session=${Buffer.from("not json").toString("base64")}.${signature}`,
    ]) {
      expect(readSignedCookie(header, "session", [secret]), header).toBeNull();
    }
    expect(readSignedCookie(null, "session", [secret])).toBeNull();
  });

  it("given a cookie already read, should read it again the same, refuse it under other secrets, and refuse a tampered copy", async () => {
    const header = await written("a-session-token");
    expect(readSignedCookie(header, "session", [secret])).toBe("a-session-token");
    expect(readSignedCookie(header, "session", [secret])).toBe("a-session-token");
    expect(readSignedCookie(header, "session", ["a-secret-it-was-not-signed-with"])).toBeNull();
    expect(readSignedCookie(header, "session", [secret])).toBe("a-session-token");
    const signed = header.slice("session=".length);
    const forged = Buffer.from(JSON.stringify("another-token")).toString("base64");
    expect(readSignedCookie(`session=${forged}${signed.slice(signed.lastIndexOf("."))}`, "session", [secret])).toBeNull();
    expect(readSignedCookie(`session=${signed.slice(0, -2)}AA`, "session", [secret])).toBeNull();
  });
});
