import { describe, expect, it } from "vitest";
import { type InstrumentDefinition, instrumentForm, textIn } from "~/features/instruments/instrument-definition.ts";
import { INSTRUMENTS, instrumentByKey } from "~/features/instruments/library.ts";
import { achievableTotals, uncoveredTotals } from "~/features/scoring/achievable.ts";
import { scoreForm, scoringProblems } from "~/features/scoring/scales.ts";
import type { GivenAnswer } from "~/features/scoring/scoring.ts";
import { LOCALES } from "~/lib/i18n.ts";
import { run, TABLES } from "../support/instrument-cases.ts";

/**
 * Every instrument of the library (docs/api-contract.md §17) scored by the engine as its published
 * instructions score it (ADR 67): the answer patterns and their totals, bands, subscales and flags,
 * worked out by hand, are in tests/support/instrument-cases.ts.
 */

const instrument = (key: string): InstrumentDefinition => instrumentByKey(key)!;

/** The answers that choose, for each item, the option printed with that score. */
function answersFor(definition: InstrumentDefinition, scores: readonly (number | null)[]): GivenAnswer[] {
  expect(scores).toHaveLength(definition.items.length);
  return definition.items.flatMap((item, index) => {
    const score = scores[index];
    if (score === null || score === undefined) return [];
    const position = item.options.findIndex((option) => option.score === score);
    expect(position, `${item.key} has an option scoring ${score}`).toBeGreaterThanOrEqual(0);
    return [{ questionId: item.key, optionIds: [`${item.key}.${position}`] }];
  });
}

describe("the instrument library", () => {
  it("given the list, should hold at least the eleven instruments of the contract, each with a table below", () => {
    expect(INSTRUMENTS.map((definition) => definition.key)).toEqual(
      expect.arrayContaining(["phq-9", "gad-7", "phq-15", "who-5", "k10", "epds", "audit", "audit-c", "pcl-5", "dass-21", "rses"]),
    );
    expect(Object.keys(TABLES).sort()).toEqual(INSTRUMENTS.map((definition) => definition.key).sort());
    expect(new Set(INSTRUMENTS.map((definition) => definition.key)).size).toBe(INSTRUMENTS.length);
    expect(instrumentByKey("nothing")).toBeNull();
  });

  for (const definition of INSTRUMENTS) {
    describe(definition.name, () => {
      it("given its data, should be a valid scoring configuration with a source, a licence and a citation", () => {
        expect(scoringProblems(instrumentForm(definition))).toEqual([]);
        expect(definition.scoringSource).toMatch(/^https?:\/\//);
        expect(definition.licence.length).toBeGreaterThan(10);
        expect(definition.citation.length).toBeGreaterThan(10);
        // The pages show where its change-over-time constants come from.
        const constants =
          definition.reliableChange !== null ||
          definition.remissionBelow !== null ||
          definition.subscales.some((s) => (s.reliableChange ?? s.remissionBelow ?? null) !== null);
        expect((definition.changeSource?.length ?? 0) > 10).toBe(constants);
        expect(new Set(definition.items.map((item) => item.key)).size).toBe(definition.items.length);
        const critical =
          definition.items.some((item) => item.options.some((option) => option.critical)) || definition.scoreRanges.some((band) => band.critical);
        expect(definition.criticalMessage !== null).toBe(critical);
      });

      it("given its languages, should have every text in each of them and none in another", () => {
        expect(definition.languages[0]).toBe("en");
        const texts = [definition.instructions, ...definition.items.flatMap((item) => [item.text, ...item.options.map((option) => option.text)])];
        for (const locale of LOCALES) {
          const given = texts.filter((text) => Object.hasOwn(text, locale));
          expect(given.length, locale).toBe(definition.languages.includes(locale) ? texts.length : 0);
        }
      });

      it("given every total it can give, should name a band for each", () => {
        const form = instrumentForm(definition);
        const scaled = (multiplier: number, questions = form.questions) => {
          const totals = achievableTotals(questions);
          return { ...totals, min: totals.min * multiplier, max: totals.max * multiplier };
        };
        if (form.scoreRanges.length > 0) expect(uncoveredTotals(form.scoreRanges, scaled(definition.scoring.multiplier))).toEqual([]);
        for (const subscale of form.subscales ?? []) {
          if (!subscale.scoreRanges?.length) continue;
          const questions = form.questions.filter((question) => subscale.items.includes(question.key!));
          expect(uncoveredTotals(subscale.scoreRanges, scaled(subscale.multiplier ?? 1, questions)), subscale.key).toEqual([]);
        }
      });

      const table = TABLES[definition.key] ?? [];
      it("given its table, should have at least ten answer patterns", () => {
        expect(table.length).toBeGreaterThanOrEqual(10);
      });

      it.each(table)("given $name, should score $total ($label)", (row) => {
        const result = scoreForm(instrumentForm(definition), answersFor(definition, row.scores));
        expect(result.total.score).toBe(row.total);
        expect(result.total.label).toBe(row.label);
        expect(result.total.scorable).toBe(row.total !== null);
        expect(result.total.prorated).toBe(row.prorated ?? false);
        for (const [key, [score, label]] of Object.entries(row.subscales ?? {})) {
          const subscale = result.subscales.find((candidate) => candidate.key === key);
          expect(subscale, key).toBeDefined();
          expect({ key, score: subscale!.score, label: subscale!.label }).toEqual({ key, score, label });
        }
        expect(result.flags.map((flag) => `${flag.kind} ${flag.questionKey ?? flag.subscaleKey ?? ""}`.trim())).toEqual(row.flags ?? []);
      });
    });
  }
});

describe("the instruments' own rules", () => {
  it("given the PHQ-9's item 9 answered in Spanish or Portuguese, should flag it in that language's words", () => {
    const phq9 = instrument("phq-9");
    const answers = answersFor(phq9, [1, 1, 0, 0, 0, 0, 0, 0, 1]);
    expect(scoreForm(instrumentForm(phq9, "es"), answers).flags[0]?.text).toBe(
      "Pensamientos de que estaría mejor muerto(a) o de lastimarse de alguna manera — Varios días",
    );
    expect(scoreForm(instrumentForm(phq9, "pt-BR"), answers).flags[0]?.text).toBe(
      "Pensar em se ferir de alguma maneira ou que seria melhor estar morto/a — Vários dias",
    );
    expect(textIn(phq9.instructions, "es")).toMatch(/^Durante las últimas 2 semanas/);
  });

  it("given an instrument without a language, should fall back to its English", () => {
    expect(textIn(instrument("gad-7").items[0]!.text, "pt-BR")).toBe("Feeling nervous, anxious, or on edge");
  });

  it("given the Rosenberg scale, should mirror items 2, 5, 6, 8 and 9 and show the printed score beside the counted one", () => {
    const rses = instrument("rses");
    expect(rses.items.filter((item) => item.reverseScored).map((item) => item.key)).toEqual(["q2", "q5", "q6", "q8", "q9"]);
    const result = scoreForm(instrumentForm(rses), answersFor(rses, run(10, 10, 3)));
    expect(result.answers.map((answer) => [answer.rawScore, answer.score])).toEqual([
      [3, 3],
      [3, 0],
      [3, 3],
      [3, 3],
      [3, 0],
      [3, 0],
      [3, 3],
      [3, 0],
      [3, 0],
      [3, 3],
    ]);
  });

  it("given the EPDS, should print items 3 and 5–10 from 3 down to 0 and items 1, 2 and 4 from 0 up", () => {
    const epds = instrument("epds");
    expect(epds.items.map((item) => item.options[0]!.score)).toEqual([0, 0, 3, 0, 3, 3, 3, 3, 3, 3]);
    expect(epds.items[9]!.options.map((option) => [option.text.en, option.critical ?? false])).toEqual([
      ["Yes, quite often", true],
      ["Sometimes", true],
      ["Hardly ever", true],
      ["Never", false],
    ]);
  });

  it("given the WHO-5 and the DASS-21, should report the multiplied maximum", () => {
    expect(scoreForm(instrumentForm(instrument("who-5")), []).total.maxScore).toBe(100);
    const dass = scoreForm(instrumentForm(instrument("dass-21")), answersFor(instrument("dass-21"), run(21, 0, 0)));
    expect(dass.subscales.map((subscale) => subscale.maxScore)).toEqual([42, 42, 42]);
    expect(dass.total.maxScore).toBe(63);
  });

  it("given the translations and constants read from a published source, should carry those and no others", () => {
    // Each file's header says what was searched for and not found; a language or constant added
    // from a source read later changes its row here.
    const published = Object.fromEntries(
      INSTRUMENTS.map((definition) => [definition.key, [definition.languages, definition.reliableChange, definition.remissionBelow]]),
    );
    expect(published).toEqual({
      "phq-9": [["en", "es", "pt-BR"], { sd: 4.8, reliability: 0.84 }, 5],
      "gad-7": [["en"], { sd: 5.1, reliability: 0.92 }, null],
      "phq-15": [["en"], null, null],
      "who-5": [["en"], null, null],
      k10: [["en"], null, null],
      epds: [["en"], null, null],
      audit: [["en"], null, null],
      "audit-c": [["en"], null, null],
      "pcl-5": [["en"], null, null],
      "dass-21": [["en"], null, null],
      rses: [["en"], null, null],
    });
  });

  it("given the K10, DASS-21 and Rosenberg licences, should state the terms their publishers' pages give", () => {
    expect(instrument("k10").licence).toContain("does not require any formal permission or approval");
    expect(instrument("k10").licence).toContain("https://www.hcp.med.harvard.edu/ncs/k6_scales.php");
    expect(instrument("k10").citation).toContain("Screening for serious mental illness in the general population");
    expect(instrument("dass-21").licence).toMatch(/^Public domain: permission is not needed/);
    expect(instrument("dass-21").licence).toContain("rather than end users");
    expect(instrument("dass-21").licence).toContain("https://www2.psy.unsw.edu.au/dass/DASSFAQ.htm");
    expect(instrument("rses").licence).toContain("educational and professional research with no charge");
    expect(instrument("rses").licence).toContain("https://socy.umd.edu/quick-links/rosenberg-scale-faq-0");
    for (const definition of INSTRUMENTS) expect(definition.licence, definition.key).not.toContain("could not be read");
  });

  it("given the PHQ-9's published constants, should carry remission below 5 and lower is better", () => {
    expect(instrument("phq-9")).toMatchObject({ remissionBelow: 5, lowerIsBetter: true, scoring: { maxMissing: 2 } });
    expect(instrument("who-5").lowerIsBetter).toBe(false);
    expect(instrument("rses").lowerIsBetter).toBe(false);
  });
});
