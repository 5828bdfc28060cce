import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { renderReportPdf, reportPdfFilename } from "../../app/features/pdf/report-pdf.server.ts";
import type { ReportDetail } from "../../app/features/reports/report-schemas.ts";

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

function report(overrides: Partial<ReportDetail> = {}): ReportDetail {
  return {
    id: "sub_0001",
    studentName: "José Muñoz",
    formTitle: "Attention screening",
    completedAt: new Date("2026-03-12T23:30:00Z"),
    assignedAt: new Date("2026-03-02T09:15:00Z"),
    totalScore: -3,
    maxScore: 12,
    percentage: -25,
    scoreLabel: "Needs attention",
    scoreColor: "#D64545",
    assignedByName: "Łukasz Wójcik",
    form: { id: "form_1", title: "Attention screening", category: "Neurodevelopment", type: "Screening" },
    respondent: { kind: "student", id: "stu_1", name: "José Muñoz", grade: "5º B", age: 11 },
    assignedBy: { id: "usr_1", name: "Łukasz Wójcik" },
    organization: { id: "org_1", name: "Clínica Zoë Ørsted" },
    scoreRanges: [
      { min: -12, max: -1, label: "Needs attention", color: "#D64545" },
      { min: 0, max: 5, label: "Monitor", color: "#F0B429" },
      { min: 6, max: 12, label: "Typical", color: "#3EBD93" },
    ],
    answers: [
      { questionId: "q1", questionText: "How often do you feel worried at school?", type: "SINGLE_CHOICE", optionTexts: ["Almost every day"], text: null, score: -3, maxScore: 3 },
      { questionId: "q2", questionText: "Which of these help you feel calm?", type: "MULTIPLE_CHOICE", optionTexts: ["Talking with a friend", "Drawing"], text: null, score: 3, maxScore: 6 },
      { questionId: "q3", questionText: "How well did you sleep this week?", type: "SCALE", optionTexts: [], text: null, score: 0, maxScore: 3 },
      { questionId: "removed-question", questionText: "Anything else you would like to tell us?", type: "TEXT", optionTexts: [], text: "Thảo Nguyễn and Ana Conceição help me study.", score: 0, maxScore: 0 },
    ],
    ...overrides,
  };
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
    ["李小龍", "report-respondent-2026-03-12.pdf"],
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
