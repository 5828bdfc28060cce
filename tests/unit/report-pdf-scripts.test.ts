import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { reportPdfContentDisposition, reportPdfFilename } from "../../app/features/pdf/report-pdf-filename.ts";
import { renderReportPdf } from "../../app/features/pdf/report-pdf.server.ts";
import type { ReportDetail } from "../../app/features/reports/report-schemas.ts";
import { sampleReport as report } from "../support/report-detail.ts";

/**
 * Every script in the PDF: names and answers in Chinese, Japanese, Korean, Arabic,
 * Hebrew and emoji print in their own fonts (shaped, right-to-left where they are) and extract as
 * the text that was written. pdftotext gives text as it finds it in the ToUnicode maps; it is
 * NFKC-normalized before comparing, as ADR 23 says, and the bidi embedding marks poppler puts
 * around right-to-left text (U+202A–U+202E) are dropped.
 */

const generatedAt = new Date("2026-03-14T10:00:00Z");
const scratch = mkdtempSync(path.join(tmpdir(), "report-pdf-scripts-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const named = (name: string, answer = name) =>
  report({
    studentName: name,
    respondent: { kind: "student", id: "stu_1", name, externalId: null, dateOfBirth: null, grade: null, age: 11 },
    answers: [{ questionId: "q2", questionText: "Anything else?", type: "TEXT", optionTexts: [], text: answer, score: 0, maxScore: 0 }],
  });

function save(bytes: Uint8Array): string {
  const file = path.join(scratch, `${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

/** The PDF's text as poppler extracts it, NFKC-normalized, without bidi embedding marks. */
function pdfText(bytes: Uint8Array): string {
  return execFileSync("pdftotext", ["-enc", "UTF-8", save(bytes), "-"], { encoding: "utf8" })
    .normalize("NFKC")
    .replace(/[\u202a-\u202e\u2066-\u2069]/g, "");
}

const qpdfCheck = (bytes: Uint8Array) => execFileSync("qpdf", ["--check", save(bytes)], { encoding: "utf8" });
const ascii = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

const MIXED = [
  "王小明今天在学校过得很好，老师说他上课很专心。",
  "山田太郎さんは毎日学校へ行きます。",
  "김민준 학생은 수업 시간에 집중을 잘 합니다.",
  "محمد الأحمد يحب القراءة، وعمره 12 سنة.",
  "דוד כהן אוהב לקרוא ספרים (100%).",
  "👍 done, all good ❤️",
];

describe("renderReportPdf in every script", () => {
  it.each([
    ["Chinese", "王小明"],
    ["Japanese", "山田太郎"],
    ["Korean", "김민준"],
    ["Arabic", "محمد الأحمد"],
    ["Hebrew", "דוד כהן"],
  ])("given a %s respondent and answer, should print both so that the text extracts as written", (_, name) => {
    const bytes = renderReportPdf(named(name, `${name} (12)`), { generatedAt });
    expect(qpdfCheck(bytes)).toContain("No syntax or stream encoding errors");
    const text = pdfText(bytes);
    expect(text).not.toContain("\ufffd");
    // The respondent's row and the answer.
    expect(text.split(name).length - 1).toBeGreaterThanOrEqual(2);
  });

  it("given an emoji in an answer, should draw it (from Noto Emoji) and extract it", () => {
    const bytes = renderReportPdf(named("Ana Silva", "👍 done"), { generatedAt });
    expect(qpdfCheck(bytes)).toContain("No syntax or stream encoding errors");
    expect(ascii(bytes)).toContain("/BaseFont /NotoEmoji-Regular");
    expect(pdfText(bytes)).toContain("👍 done");
  });

  it("given user text in every place (organization, form title, question, options, bands), should print it in its script", () => {
    const bytes = renderReportPdf(
      report({
        organization: { id: "org_1", name: "מרכז הלמידה" },
        form: { id: "form_1", title: "注意力筛查", category: "発達", type: "선별" },
        scoreLabel: "متوسط",
        scoreRanges: [
          { min: 0, max: 5, label: "متوسط", color: "#F0B429" },
          { min: 6, max: 12, label: "良好", color: "#3EBD93" },
        ],
        answers: [
          { questionId: "q1", questionText: "ما هو شعورك؟", type: "MULTIPLE_CHOICE", optionTexts: ["جيد", "😀 happy"], text: null, score: 2, maxScore: 3 },
        ],
      }),
      { generatedAt },
    );
    const text = pdfText(bytes);
    for (const expected of ["מרכז הלמידה", "注意力筛查", "発達", "선별", "متوسط", "良好", "ما هو شعورك؟", "جيد", "😀 happy"]) expect(text).toContain(expected);
  });

  it("given the same mixed-script report and generation date twice, should produce identical bytes", () => {
    const answers = MIXED.map((text, i) => ({ questionId: `q${i}`, questionText: text, type: "TEXT" as const, optionTexts: [], text, score: 0, maxScore: 0 }));
    const first = renderReportPdf(report({ answers }), { generatedAt });
    const second = renderReportPdf(report({ answers }), { generatedAt });
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
  });

  it("given 30 questions in mixed scripts, regular and bold, should stay under 150 KB and extract every text", () => {
    const answers: ReportDetail["answers"] = Array.from({ length: 30 }, (_, i) => {
      const text = MIXED[i % MIXED.length]!;
      return i % 2 === 0
        ? {
            questionId: `q${i}`,
            questionText: `${i + 1}. ${text}`,
            type: "SINGLE_CHOICE",
            optionTexts: [MIXED[(i + 1) % MIXED.length]!],
            text: null,
            score: 1,
            maxScore: 3,
          }
        : {
            questionId: `q${i}`,
            questionText: `${i + 1}. ${text}`,
            type: "TEXT",
            optionTexts: [],
            text: MIXED[(i + 2) % MIXED.length]!,
            score: 0,
            maxScore: 0,
          };
    });
    const bytes = renderReportPdf(
      report({ respondent: { kind: "student", id: "stu_1", name: "محمد الأحمد", externalId: null, dateOfBirth: null, grade: null, age: 11 }, answers }),
      {
        generatedAt,
      },
    );
    expect(bytes.length).toBeLessThan(150 * 1024);
    expect(qpdfCheck(bytes)).toContain("No syntax or stream encoding errors");
    const text = pdfText(bytes).replace(/\s+/g, " ");
    for (const name of ["王小明", "山田太郎", "김민준", "محمد الأحمد", "דוד כהן", "👍 done"]) expect(text).toContain(name);
  });
});

describe("report file names in every script", () => {
  const at = (name: string) => ({ completedAt: new Date("2026-03-12T10:00:00Z"), respondent: { name } });

  it.each([
    ["王小明", "report-wangxiaoming-2026-03-12.pdf"],
    ["山田太郎", "report-shantiantailang-2026-03-12.pdf"],
    ["김민준", "report-gimminjun-2026-03-12.pdf"],
    ["محمد الأحمد", "report-mhmd-lhmd-2026-03-12.pdf"],
    ["דוד כהן", "report-dvd-khhn-2026-03-12.pdf"],
  ])("given %j, should transliterate it to the ASCII name %s", (name, expected) => {
    expect(reportPdfFilename(at(name))).toBe(expected);
  });

  it("given an Arabic name, should send both the ASCII filename and the UTF-8 filename* of RFC 6266", () => {
    const header = reportPdfContentDisposition(at("محمد الأحمد"));
    expect(header).toBe(`attachment; filename="report-mhmd-lhmd-2026-03-12.pdf"; filename*=UTF-8''${encodeURIComponent("report-محمد-الأحمد-2026-03-12.pdf")}`);
    const star = /filename\*=UTF-8''([^;]+)/.exec(header)![1]!;
    expect(decodeURIComponent(star)).toBe("report-محمد-الأحمد-2026-03-12.pdf");
  });

  it("given characters RFC 5987 does not allow bare, should percent-encode them", () => {
    expect(reportPdfContentDisposition(at("O'Brien (Jr.)"))).toBe(
      `attachment; filename="report-o-brien-jr-2026-03-12.pdf"; filename*=UTF-8''report-o-brien-jr-2026-03-12.pdf`,
    );
    expect(reportPdfContentDisposition(at("Zoë*"))).toContain("filename*=UTF-8''report-zo%C3%AB-2026-03-12.pdf");
  });
});
