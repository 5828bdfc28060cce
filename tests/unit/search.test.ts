import { describe, expect, it } from "vitest";
import { foldForSearch } from "../../app/lib/search.ts";

describe("foldForSearch", () => {
  it.each([
    ["José Muñoz", "jose munoz"],
    ["ŁUKASZ Wójcik", "lukasz wojcik"],
    ["Zoë Ørsted", "zoe orsted"],
    ["Jonas Großmann", "jonas grossmann"],
    ["Ayşe Yılmaz", "ayse yilmaz"],
    ["  Ana   Conceição ", "ana conceicao"],
  ])("given %s, should fold to %s", (input, expected) => {
    expect(foldForSearch(input)).toBe(expected);
  });

  it("given LIKE wildcards, should replace them so they only match themselves", () => {
    const folded = foldForSearch("100%_done\\");
    expect(folded).not.toMatch(/[%_\\]/);
    expect(folded).toBe(foldForSearch("100%_DONE\\"));
  });
});
