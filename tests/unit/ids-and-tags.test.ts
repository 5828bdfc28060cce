import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { entityTag, readIfMatch } from "../../app/lib/entity-tag.server.ts";
import { CUID_PATTERN, newId } from "../../app/lib/ids.server.ts";

/** The identifiers of new records and the tags of their versions (ADR 55). */
describe("new ids", () => {
  it("given many made at once, should all be distinct CUIDs that sort by the time they were made", () => {
    const ids = Array.from({ length: 100_000 }, newId);
    for (const id of ids.slice(0, 1000)) expect(id).toMatch(CUID_PATTERN);
    expect(ids.every((id) => CUID_PATTERN.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    // The time comes first, in base 36 of fixed width: a later id's time part is never smaller.
    const times = ids.map((id) => id.slice(1, 9));
    expect(times.every((time, i) => i === 0 || time >= times[i - 1]!)).toBe(true);
  });

  it("given the schema, should let Prisma give every other new row a CUID too", () => {
    const schema = readFileSync(new URL("../../prisma/schema.prisma", import.meta.url), "utf8");
    const defaults = [...schema.matchAll(/@id\s+@default\(([^)]*\)?)\)/g)].map((match) => match[1]);
    expect(defaults.length).toBeGreaterThan(15);
    expect(new Set(defaults)).toEqual(new Set(["cuid()"]));
  });
});

describe("entity tags", () => {
  const at = new Date("2026-03-14T09:30:00.000Z");

  it("given a record, should name its version with a strong tag that changes with updatedAt and the id", () => {
    const tag = entityTag({ id: "cmf3k9x2a0001qz8h4b7c2d1e", updatedAt: at });
    expect(tag).toMatch(/^"[\w-]{27}"$/);
    expect(entityTag({ id: "cmf3k9x2a0001qz8h4b7c2d1e", updatedAt: new Date(at) })).toBe(tag);
    expect(entityTag({ id: "cmf3k9x2a0001qz8h4b7c2d1e", updatedAt: new Date(at.getTime() + 1) })).not.toBe(tag);
    expect(entityTag({ id: "cmf3k9x2a0001qz8h4b7c2d1f", updatedAt: at })).not.toBe(tag);
  });

  it.each([
    [null, null],
    ["*", "*"],
    [" * ", "*"],
    ['"a"', ['"a"']],
    ['"a", W/"b", "c"', ['"a"', '"c"']],
    ['W/"b"', []],
    ["a-bare-word", []],
    ['"a",,"b"', ['"a"', '"b"']],
  ])("given If-Match %j, should read %j", (header, expected) => {
    const request = new Request("http://localhost/", header === null ? {} : { headers: { "if-match": header } });
    expect(readIfMatch(request)).toEqual(expected);
  });
});
