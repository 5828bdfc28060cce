import { describe, expect, it } from "vitest";
import { titleMayHoldTerm } from "../../app/features/reports/report-search.ts";
import { foldForSearch, submissionSearchText } from "../../app/lib/search.ts";

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

describe("titleMayHoldTerm", () => {
  // Every name and title of up to three characters from a small alphabet with the cases folding
  // treats specially (spaces, an accent, ß, a final sigma, an apostrophe), and every search term
  // that can be cut from their searchText: a term found there but not in the folded name must be
  // one the title may hold, or the people-first search would lose the result (ADR 39).
  it("given any name and title, should hold every term found in searchText outside the name", () => {
    const alphabet = ["a", "b", " ", "é", "ß", "Σ", "'"];
    const texts = [""];
    for (let length = 1; length <= 3; length += 1) {
      for (const text of texts.filter((t) => t.length === length - 1)) texts.push(...alphabet.map((letter) => text + letter));
    }
    const names = texts.filter((text) => foldForSearch(text) !== "");
    let checked = 0;
    const lost: string[] = [];
    for (const name of names) {
      const folded = foldForSearch(name);
      for (const title of names) {
        const searchText = submissionSearchText(name, title);
        const foldedTitle = foldForSearch(title);
        for (let start = 0; start < searchText.length; start += 1) {
          for (let end = start + 1; end <= searchText.length; end += 1) {
            const term = searchText.slice(start, end);
            // searchText is folded: a piece of it is a term as the app folds one unless it starts or ends with a space.
            if (term !== term.trim() || folded.includes(term)) continue;
            checked += 1;
            if (!titleMayHoldTerm(foldedTitle, term)) lost.push(JSON.stringify({ name, title, term }));
          }
        }
      }
    }
    expect(lost).toEqual([]);
    expect(checked).toBeGreaterThan(10_000);
  });

  it("given a term inside the name only, should leave it to the names", () => {
    expect(titleMayHoldTerm("leitura", "ana lu")).toBe(false);
    expect(titleMayHoldTerm("leitura", "ana leitura")).toBe(true);
    expect(titleMayHoldTerm("leitura", "tura")).toBe(true);
    expect(titleMayHoldTerm("leitura", "silva lei")).toBe(true);
    expect(titleMayHoldTerm("leitura", "silva costa lei")).toBe(true);
  });
});
