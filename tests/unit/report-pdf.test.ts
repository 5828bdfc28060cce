import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { jsPDF } from "jspdf";
import { afterAll, describe, expect, it } from "vitest";
import { EmbeddedFont } from "../../app/features/pdf/embedded-font.server.ts";
import { reportPdfFilename } from "../../app/features/pdf/report-pdf-filename.ts";
import { renderReportPdf } from "../../app/features/pdf/report-pdf.server.ts";
import { compoundComponents, loadedScriptFaces } from "../../app/features/pdf/script-fonts.server.ts";
import type { ReportDetail } from "../../app/features/reports/report-schemas.ts";
import { serverTranslations } from "../../app/i18n/dictionaries.server.ts";
import { LOCALES } from "../../app/lib/i18n.ts";
import { sampleReport as report } from "../support/report-detail.ts";

const generatedAt = new Date("2026-03-14T10:00:00Z");
const scratch = mkdtempSync(path.join(tmpdir(), "report-pdf-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function answers(count: number): ReportDetail["answers"] {
  const types = ["SINGLE_CHOICE", "MULTIPLE_CHOICE", "SCALE", "TEXT"] as const;
  return Array.from({ length: count }, (_, i) => {
    const type = types[i % types.length]!;
    return {
      questionId: `q${i + 1}`,
      questionText: `Question ${i + 1}: over the last four weeks, how often has the respondent found it hard to stay focused on a task until it was finished?`,
      type,
      optionTexts: type === "TEXT" ? [] : type === "MULTIPLE_CHOICE" ? ["At home", "At school"] : ["Often"],
      text: type === "TEXT" ? "Mostly in the afternoons, after lunch; much better with short breaks." : null,
      score: type === "TEXT" ? 0 : 2,
      maxScore: type === "TEXT" ? 0 : 4,
    };
  });
}

/** The PDF's text as poppler extracts it: proves the embedded font maps glyphs back to Unicode. */
function pdfText(bytes: Uint8Array): string {
  const probe = spawnSync("pdftotext", ["-v"], { encoding: "utf8" });
  if (probe.error) {
    throw new Error("pdftotext is not installed: run `apt-get install -y poppler-utils` (the report PDF text checks need it).");
  }
  const file = path.join(scratch, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
}

const ascii = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");
const pageCount = (bytes: Uint8Array) => ascii(bytes).match(/\/Type \/Page(?![a-zA-Z])/g)?.length ?? 0;
const oneLine = (text: string) => text.replace(/\s+/g, " ");

describe("reportPdfFilename", () => {
  it.each([
    ["José Muñoz", "report-jose-munoz-2026-03-12.pdf"],
    ["Łukasz Wójcik", "report-lukasz-wojcik-2026-03-12.pdf"],
    ["Zoë Ørsted", "report-zoe-orsted-2026-03-12.pdf"],
    ["  Ana   Conceição (Jr.) ", "report-ana-conceicao-jr-2026-03-12.pdf"],
    ["Thảo Nguyễn", "report-thao-nguyen-2026-03-12.pdf"],
    ["李小龍", "report-lixiaolong-2026-03-12.pdf"],
    ["", "report-respondent-2026-03-12.pdf"],
  ])("given respondent %j, should be %s", (name, expected) => {
    const base = report();
    expect(reportPdfFilename(report({ studentName: name, respondent: { ...base.respondent, name } }))).toBe(expected);
  });

  it("given a completion late in the evening west of UTC, should use the UTC date", () => {
    expect(reportPdfFilename(report({ completedAt: new Date("2026-03-12T23:30:00-05:00") }))).toBe("report-jose-munoz-2026-03-13.pdf");
  });
});

describe("renderReportPdf", () => {
  it("given a completed report, should return an A4 PDF document", () => {
    const bytes = renderReportPdf(report(), { generatedAt });
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(ascii(bytes.subarray(0, 5))).toBe("%PDF-");
    expect(ascii(bytes)).toMatch(/\/MediaBox \[0 0 595\.2\d* 841\.8\d*\]/);
    expect(ascii(bytes.subarray(-6))).toContain("%%EOF");
  });

  it("given accented names, should embed a Unicode font whose text extracts intact", () => {
    const text = pdfText(renderReportPdf(report(), { generatedAt }));
    for (const name of ["José Muñoz", "Łukasz Wójcik", "Clínica Zoë Ørsted", "Thảo Nguyễn", "Ana Conceição"]) {
      expect(text).toContain(name);
    }
  });

  it("given a report, should print the header, result, band, every question with its answer and score, and the footer", () => {
    const text = oneLine(pdfText(renderReportPdf(report(), { generatedAt })));
    expect(text).toContain("Assessment report");
    expect(text).toContain("Attention screening");
    expect(text).toContain("Needs attention");
    expect(text).toContain("How often do you feel worried at school?");
    expect(text).toContain("Almost every day");
    expect(text).toContain("Talking with a friend");
    expect(text).toContain("No answer");
    expect(text).toContain("not scored");
    expect(text).toMatch(/-3 ?\/ ?3/);
    expect(text).toContain("Page 1 of 1");
    expect(text).toContain("Generated March 14, 2026");
    expect(text).not.toContain("stu_1");
    expect(text).not.toContain("form_1");
  });

  it("given no matching band or no bands at all, should say so", () => {
    const outside = oneLine(pdfText(renderReportPdf(report({ totalScore: 40, scoreLabel: null, scoreColor: null }), { generatedAt })));
    expect(outside).toContain("No score band matches this total.");
    const none = oneLine(pdfText(renderReportPdf(report({ scoreRanges: [], scoreLabel: null, scoreColor: null }), { generatedAt })));
    expect(none).toContain("This form defines no score bands.");
    expect(none).not.toContain("SCORE BANDS");
  });

  it("given a form that shows its total RAW, should print the score of its maximum and no percentage; given PERCENT, its percentage", () => {
    const phq9 = report({ display: "RAW", totalScore: 3, maxScore: 27, percentage: 11.11, scoreLabel: "Minimal", scoreColor: "#3EBD93" });
    const raw = oneLine(pdfText(renderReportPdf(phq9, { generatedAt })));
    expect(raw).toContain("3 / 27");
    expect(raw).not.toContain("11.1");
    expect(raw).not.toContain("%");
    const spanish = oneLine(
      pdfText(renderReportPdf(report({ display: "RAW", totalScore: 4.5, maxScore: 27, percentage: 16.67 }), { generatedAt, locale: "es" })),
    );
    expect(spanish).toContain("4,5 / 27");
    const percent = oneLine(pdfText(renderReportPdf(report(), { generatedAt })));
    expect(percent).toContain("-25%");
    expect(percent).toMatch(/-3 ?\/ ?12/);
  });

  it("given a total without bands whose subscales carry the result, should not say the total has no band", () => {
    const subscale = { maxScore: 42, items: 7, answered: 7, prorated: false, scorable: true, label: "Mild", color: "#F0B429" };
    const dass = report({
      display: "RAW",
      scoreRanges: [],
      scoreLabel: null,
      scoreColor: null,
      totalScore: 30,
      maxScore: 126,
      percentage: 23.81,
      subscales: [
        { ...subscale, key: "depression", name: "Depression", score: 10 },
        { ...subscale, key: "anxiety", name: "Anxiety", score: 8 },
      ],
    });
    const text = oneLine(pdfText(renderReportPdf(dass, { generatedAt })));
    expect(text).toContain("30 / 126");
    expect(text).not.toContain("This form defines no score bands.");
    expect(text).toContain("SUBSCALES Depression Mild 10 / 42 Anxiety Mild 8 / 42");
  });

  it("given subscales, one prorated and one unscorable, and an unscorable total, should print each with its band and score", () => {
    const subscale = { maxScore: 42, items: 7, answered: 7, prorated: false, scorable: true };
    const bytes = renderReportPdf(
      report({
        totalScore: null,
        percentage: null,
        scoreLabel: null,
        scoreColor: null,
        subscales: [
          { ...subscale, key: "depression", name: "Depression", score: 28, label: "Extremely severe", color: "#8E1B1B" },
          { ...subscale, key: "anxiety", name: "Anxiety", score: 9.33, label: "Mild", color: "#F0B429", answered: 6, prorated: true },
          { ...subscale, key: "stress", name: "Stress", score: null, label: null, color: null, answered: 4, scorable: false },
        ],
      }),
      { generatedAt },
    );
    const text = oneLine(pdfText(bytes));
    expect(text).toContain("SUBSCALES");
    expect(text).toContain("SUBSCALES Depression Extremely severe Anxiety Mild prorated for missing answers Stress too many answers missing to score ANSWERS");
    // pdftotext reads the right-aligned scores as a column of their own.
    expect(text).toContain("28 / 42 9.33 / 42 — / 42");
    // The total that could not be scored: a dash, and no marker on the bands.
    expect(text).toContain("— / 12");
    expect(text).not.toContain("SCORE BANDS");
    // Without subscales the section is not there.
    expect(oneLine(pdfText(renderReportPdf(report(), { generatedAt })))).not.toContain("SUBSCALES");
  });

  it("given a flagged result, should mark it in words with what raised each flag, and who acknowledged it when, with their note", () => {
    const flags: ReportDetail["flags"] = [
      { kind: "OPTION", questionKey: "phq9", text: "Thoughts that you would be better off dead — Nearly every day" },
      { kind: "BAND", text: "Severe" },
    ];
    const flagged = report({ flags, flaggedAt: new Date("2026-03-12T23:30:00Z") });
    const waiting = oneLine(pdfText(renderReportPdf(flagged, { generatedAt })));
    expect(waiting).toContain(
      "NEEDS ATTENTION Flagged: an answer or a score of this result is marked critical. • Thoughts that you would be better off dead — Nearly every day • Severe Not acknowledged yet.",
    );
    const seen = report({
      ...flagged,
      acknowledgedAt: new Date("2026-03-13T08:05:00Z"),
      acknowledgedBy: { id: "usr_2", name: "Marta Ruiz" },
      acknowledgementNote: "Called the family; follow-up on Monday.",
    });
    const acknowledged = oneLine(pdfText(renderReportPdf(seen, { generatedAt })));
    expect(acknowledged).toContain("Acknowledged by Marta Ruiz, March 13, 2026 at 8:05 AM UTC Note: Called the family; follow-up on Monday.");
    const es = oneLine(pdfText(renderReportPdf(seen, { locale: "es", generatedAt })));
    expect(es).toContain("REQUIERE ATENCIÓN Marcado:");
    expect(es).toContain("Revisado por Marta Ruiz");
    // Without a flag the section is not there.
    expect(oneLine(pdfText(renderReportPdf(report(), { generatedAt })))).not.toContain("NEEDS ATTENTION");
  });

  it("given locale es or pt-BR, should translate the fixed wording and format dates for the locale", () => {
    const es = oneLine(pdfText(renderReportPdf(report(), { locale: "es", generatedAt })));
    expect(es).toContain("Informe de evaluación");
    expect(es).toContain("Sin respuesta");
    expect(es).toContain("12 de marzo de 2026");
    expect(es).toContain("Página 1 de 1");
    const pt = oneLine(pdfText(renderReportPdf(report(), { locale: "pt-BR", generatedAt })));
    expect(pt).toContain("Relatório de avaliação");
    expect(pt).toContain("12 de março de 2026");
  });

  it("given a record number and a date of birth, should print them under the person's name as a day of the language, and neither when the person has none", () => {
    const text = oneLine(pdfText(renderReportPdf(report(), { generatedAt })));
    // The two columns of the header interleave in the extracted text: the respondent's rows keep their order.
    const rows = ["Name José Muñoz", "Record number S-1042", "Date of birth March 9, 2014", "Type Student"].map((row) => text.indexOf(row));
    expect(rows.every((at) => at >= 0)).toBe(true);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
    const es = oneLine(pdfText(renderReportPdf(report(), { locale: "es", generatedAt })));
    // Longer labels wrap in their column, so the words are checked apart from their values.
    for (const words of ["Número de", "expediente", "S-1042", "Fecha de", "nacimiento", "9 de marzo de 2014"]) expect(es).toContain(words);
    const without = oneLine(pdfText(renderReportPdf(report({ respondent: { ...report().respondent, externalId: null, dateOfBirth: null } }), { generatedAt })));
    expect(without).not.toContain("Record number");
    expect(without).not.toContain("Date of birth");
  });

  it.each(LOCALES)("given a clinic's report in %s, should say the clinic's word for the person and their service", (locale) => {
    const school = serverTranslations(locale, "SCHOOL").pdf;
    const clinic = serverTranslations(locale, "CLINIC").pdf;
    const text = oneLine(pdfText(renderReportPdf(report(), { locale, generatedAt, organizationKind: "CLINIC" })));
    expect(text).toContain(`${clinic.kind} ${clinic.kinds.student}`);
    expect(text).toContain(`${clinic.grade} 5º B`);
    expect(text).not.toContain(school.kinds.student);
    expect(text).not.toContain(school.grade);
    // The same report for a school, in the same process: the cached formatters are kept apart by kind.
    expect(oneLine(pdfText(renderReportPdf(report(), { locale, generatedAt })))).toContain(`${school.kind} ${school.kinds.student}`);
  });

  it.each(LOCALES)("given locale %s, should print the fixed wording of that language's server dictionary", (locale) => {
    const t = serverTranslations(locale, "SCHOOL").pdf;
    const text = oneLine(pdfText(renderReportPdf(report(), { locale, generatedAt })));
    expect(text).toContain(t.documentTitle);
    expect(text).toContain(t.noAnswer);
    expect(text).toContain(t.page("1", "1"));
  });

  it("given a regional tag or a language we do not speak, should print its language's wording or else English", () => {
    expect(oneLine(pdfText(renderReportPdf(report(), { locale: "es-MX", generatedAt })))).toContain("Informe de evaluación");
    expect(oneLine(pdfText(renderReportPdf(report(), { locale: "pt-PT", generatedAt })))).toContain("Relatório de avaliação");
    expect(oneLine(pdfText(renderReportPdf(report(), { locale: "fr", generatedAt })))).toContain("Assessment report");
  });

  it("given the same report and generation date twice, should produce identical bytes", () => {
    const first = renderReportPdf(report(), { generatedAt });
    const second = renderReportPdf(report(), { generatedAt });
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
  });

  it("given a 60-question form, should flow over more pages numbered in every footer", () => {
    const short = renderReportPdf(report(), { generatedAt });
    const long = renderReportPdf(report({ answers: answers(60) }), { generatedAt });
    expect(pageCount(short)).toBe(1);
    const pages = pageCount(long);
    expect(pages).toBeGreaterThan(3);
    const text = oneLine(pdfText(long));
    for (let page = 1; page <= pages; page++) expect(text).toContain(`Page ${page} of ${pages}`);
    expect(text).toContain("Question 60:");
  });
});

describe("renderReportPdf of Latin text beside the script fonts", () => {
  // Nothing in this file draws a script Noto Sans lacks, so this process never reads a script font.
  it("given a Latin-only report, should read none of the script fonts and embed only Noto Sans", () => {
    const bytes = renderReportPdf(report({ answers: answers(30) }), { generatedAt });
    expect(loadedScriptFaces()).toEqual([]);
    expect(ascii(bytes)).not.toMatch(/NotoSans(SC|JP|KR|Arabic|Hebrew)|NotoEmoji/);
  });

  it("given this file's report, should be no larger than before the script fonts (95,002 bytes, measured at the commit before)", () => {
    expect(renderReportPdf(report(), { generatedAt }).length).toBeLessThanOrEqual(95_002);
  });

  it("given this file's report, should embed Noto Sans cut down to the glyphs drawn and the tables a PDF reads (16,256 bytes with HarfBuzz's subsetter; 95,002 with jsPDF's tables)", () => {
    expect(renderReportPdf(report(), { generatedAt }).length).toBeLessThanOrEqual(17_000);
  });
});

describe("renderReportPdf with fonts and formatters shared between renders", () => {
  it("given locales and time zones that change from one render to the next, should print each report in its own", () => {
    // 2026-03-12T23:30Z is already March 13 in Tokyo.
    const utc = oneLine(pdfText(renderReportPdf(report(), { generatedAt })));
    const es = oneLine(pdfText(renderReportPdf(report(), { locale: "es", timeZone: "Asia/Tokyo", generatedAt })));
    const tokyo = oneLine(pdfText(renderReportPdf(report(), { timeZone: "Asia/Tokyo", generatedAt })));
    const again = oneLine(pdfText(renderReportPdf(report(), { generatedAt })));
    expect(utc).toContain("Assessment report");
    expect(utc).toContain("March 12, 2026");
    expect(es).toContain("Informe de evaluación");
    expect(es).toContain("13 de marzo de 2026");
    expect(tokyo).toContain("Assessment report");
    expect(tokyo).toContain("March 13, 2026");
    expect(tokyo).not.toContain("March 12, 2026");
    expect(again).toBe(utc);
  });

  it("given another report rendered in between, should give the same bytes as before it", () => {
    const plain = report({ respondent: { kind: "candidate", id: "can_1", name: "Ana Silva", externalId: null, dateOfBirth: null, grade: null, age: null } });
    const first = renderReportPdf(plain, { generatedAt });
    const other = report({
      respondent: { kind: "student", id: "stu_2", name: "Thảo Nguyễn Ørsted Æbelø", externalId: null, dateOfBirth: null, grade: "7", age: 13 },
      organization: { id: "org_2", name: "Σχολείο Ψ — Школа №5 — Łódź" },
      answers: answers(40),
    });
    const otherText = oneLine(pdfText(renderReportPdf(other, { locale: "pt-BR", generatedAt })));
    expect(otherText).toContain("Thảo Nguyễn Ørsted Æbelø");
    expect(otherText).toContain("Σχολείο Ψ — Школа №5 — Łódź");
    const second = renderReportPdf(plain, { generatedAt });
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
  });
});

describe("renderReportPdf beside other jsPDF documents", () => {
  it("given a render, should leave jsPDF as it was for a document made with its own font handling", () => {
    const api = jsPDF.API as unknown as { processDataByFilters: unknown };
    const filters = api.processDataByFilters;
    renderReportPdf(report(), { generatedAt });
    expect(api.processDataByFilters).toBe(filters);

    const require = createRequire(import.meta.url);
    const ttf = readFileSync(require.resolve("@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf")).toString("latin1");
    const doc = new jsPDF({ unit: "pt", format: "a4", compress: true });
    doc.addFileToVFS("noto.ttf", ttf);
    doc.addFont("noto.ttf", "Noto", "normal", undefined, "Identity-H");
    doc.setFont("Noto", "normal");
    doc.text("Łukasz Wójcik, Thảo Nguyễn", 50, 50);
    expect(pdfText(new Uint8Array(doc.output("arraybuffer")))).toContain("Łukasz Wójcik, Thảo Nguyễn");
  });
});

/** Where each glyph's data starts in a TrueType file, or null for an empty glyph. */
function glyphOffsets(ttf: Uint8Array): (id: number) => number | null {
  const view = new DataView(ttf.buffer, ttf.byteOffset, ttf.byteLength);
  const tables = new Map<string, number>();
  for (let i = 0; i < view.getUint16(4); i++) tables.set(ascii(ttf.subarray(12 + 16 * i, 16 + 16 * i)), view.getUint32(20 + 16 * i));
  const count = view.getUint16(tables.get("maxp")! + 4);
  const long = view.getInt16(tables.get("head")! + 50) === 1;
  const loca = tables.get("loca")!;
  const glyf = tables.get("glyf")!;
  const at = (id: number) => (long ? view.getUint32(loca + 4 * id) : view.getUint16(loca + 2 * id) * 2);
  return (id) => (id < count && at(id + 1) > at(id) ? glyf + at(id) : null);
}

/** Each glyph's outline header (contour count and bounding box) in a TrueType file, or null for an empty glyph. */
function outlines(ttf: Uint8Array): (string | null)[] {
  const view = new DataView(ttf.buffer, ttf.byteOffset, ttf.byteLength);
  const maxp = Array.from({ length: view.getUint16(4) }, (_, i) => 12 + 16 * i).find((entry) => ascii(ttf.subarray(entry, entry + 4)) === "maxp")!;
  const start = glyphOffsets(ttf);
  return Array.from({ length: view.getUint16(view.getUint32(maxp + 8) + 4) }, (_, id) => {
    const at = start(id);
    return at === null ? null : Buffer.from(ttf.subarray(at, at + 10)).toString("hex");
  });
}

describe("EmbeddedFont", () => {
  const require = createRequire(import.meta.url);
  const file = new Uint8Array(readFileSync(require.resolve("@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf")));
  const font = new EmbeddedFont(file);
  const reference = (jsPDF as unknown as { API: { TTFFont: { open(data: Uint8Array): { characterToGlyph(code: number): number } } } }).API.TTFFont.open(file);
  const glyphs = (text: string) => [0, ...Array.from(text, (char) => reference.characterToGlyph(char.charCodeAt(0)))];
  const original = outlines(file);
  const glyfAt = glyphOffsets(file);

  it.each([
    ["nothing but .notdef", ""],
    ["accented Latin, Polish, Nordic and Vietnamese", "José Muñoz, Łukasz Wójcik, Zoë Ørsted, Åsa, Thảo Nguyễn, Ana Conceição"],
    ["Greek and Cyrillic", "Σχολείο Ψ — Школа №5 — Ελλάδα, Україна"],
    ["one in four of the characters the font draws", String.fromCodePoint(...[...font.coverage].filter((code, i) => code <= 0xffff && i % 4 === 0))],
  ])("given %s, should embed those glyphs, each under its own id, and no glyph that is not asked for or part of one", (_, text) => {
    const ids = new Set(glyphs(text));
    const subset = outlines(font.fontProgram(ids));
    // Composite glyphs (accented letters built from a base letter and an accent) bring their
    // components; every other glyph is left empty.
    const kept = new Set<number>();
    const pending = [...ids];
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (kept.has(id)) continue;
      kept.add(id);
      const start = glyfAt(id);
      if (start !== null) pending.push(...compoundComponents(file, start).map((component) => component.gid));
    }
    const expected = original.map((outline, id) => (kept.has(id) ? outline : null));
    expect(subset).toEqual(expected.slice(0, subset.length));
    expect(expected.slice(subset.length).every((outline) => outline === null)).toBe(true);
  });

  it("given Vietnamese, Polish and Nordic letters, should cover them", () => {
    for (const char of "ảễệơưđĐŁłŚśŹźŻżØøÅåÆæ") expect(font.coverage.has(char.codePointAt(0)!)).toBe(true);
  });
});
