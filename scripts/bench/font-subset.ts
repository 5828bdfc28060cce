/**
 * HarfBuzz's subsetter (app/features/pdf/font-subset.server.ts) beside the hand-written TrueType
 * subsetters it was measured against (ADR 65): the same fonts and the same glyphs through both,
 * each subset timed in turn with the other (the machine's load falls on both alike).
 *
 *   npx tsx scripts/bench/font-subset.ts [samples=200] [--baseline=<git revision>]
 *
 * The hand-written subsetters are taken from git: app/features/pdf at --baseline (by default the
 * last revision whose embedded-font.server.ts still had them) is copied to
 * app/features/.pdf-baseline for the run and removed afterwards. Printed, per font:
 *
 * - CPU time per subset (median, and p90, of samples of ten; time spent waiting for a core does
 *   not count), of the font program alone and compressed as it goes into the PDF: Noto Sans
 *   through the hand-written subsetter (its constant tables deflated once at load) and through
 *   HarfBuzz with glyph ids kept (+ zlib); the script fonts (Noto Sans SC, JP, KR, Arabic, Hebrew,
 *   Emoji) through their own subsetter (glyphs renumbered in the order the document draws them)
 *   and through HarfBuzz renumbering them in id order (which the PDF would have to map back with a
 *   CIDToGIDMap stream); each script font in a process of its own;
 * - the program's size, uncompressed and compressed;
 * - once per font, what HarfBuzz's preparation of the face costs (hb_subset_preprocess).
 *
 * Then the benchmarks' report, in Latin and with names and answers in every script, is rendered
 * whole by both renderers in turn: CPU time per render, size, `qpdf --check` of each, and whether
 * pdftotext extracts the same text from both and pdftoppm draws the same pixels (the PDFs are left
 * in data/bench/font-subset/). Exits with 1 when a check fails.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { deflateSync } from "node:zlib";
import type { ReportDetail } from "../../app/features/reports/report-schemas.ts";
import { buildReport } from "./pdf-sample-report.ts";

const root = path.resolve(import.meta.dirname, "..", "..");
const args = process.argv.slice(2);
const samples = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 200);
const git = (...command: string[]) => execFileSync("git", command, { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });

const EMBEDDED_FONT = "app/features/pdf/embedded-font.server.ts";

/** The revision to take the hand-written subsetters from. */
function baselineRevision(): string {
  const explicit = args.find((arg) => arg.startsWith("--baseline="))?.slice("--baseline=".length);
  if (explicit) return git("rev-parse", explicit).trim();
  const has = (revision: string) => git("show", `${revision}:${EMBEDDED_FONT}`).includes("deflatedFontProgram(");
  if (has("HEAD")) return git("rev-parse", "HEAD").trim();
  // The newest commit that changed how often the file names the hand-written subsetter is the one
  // that removed it: its parent is the last revision that had it.
  const commit = git("log", "-1", "--format=%H", "-S", "deflatedFontProgram", "HEAD", "--", EMBEDDED_FONT).trim();
  if (!commit) throw new Error(`No revision of ${EMBEDDED_FONT} has the hand-written subsetter; pass --baseline=<revision>.`);
  return git("rev-parse", `${commit}^`).trim();
}

// ---------------------------------------------------------------------------------------------
// The two implementations.

type Renderer = (report: ReportDetail, options: { locale?: string; generatedAt?: Date }) => Uint8Array;
type HandWrittenFont = {
  documentMetadata(): { characterToGlyph(code: number): number };
  subsetFontProgram(ids: Iterable<number>): { bytes: Uint8Array };
  deflatedFontProgram(ids: Iterable<number>): { data: Buffer; length: number };
};
type ScriptFamily = "hebrew" | "arabic" | "sc" | "jp" | "kr" | "emoji";
type ScriptFace = { hb: { shape(text: string, start: number, end: number, rtl: boolean): { gid: number; cluster: number }[] } };
type ScriptFontUse = { cid(gid: number, text: string): number; fontProgram(): Uint8Array };
type ScriptFonts = {
  scriptFace(family: ScriptFamily, style: "normal" | "bold"): ScriptFace;
  ScriptFontUse: new (face: ScriptFace) => ScriptFontUse;
};

// --script-font=<family>: measure that script font only and print its row as JSON. HarfBuzz's
// subsetter has 65 MB of memory, fewer than the CJK faces take together, so the parent process
// runs each script font in a process of its own.
const scriptFontOnly = args.find((arg) => arg.startsWith("--script-font="))?.slice("--script-font=".length) as ScriptFamily | undefined;
const baselineDir = path.join(root, "app", "features", ".pdf-baseline");
const revision = scriptFontOnly ? "" : baselineRevision();
if (!scriptFontOnly) {
  rmSync(baselineDir, { recursive: true, force: true });
  mkdirSync(baselineDir, { recursive: true });
  process.on("exit", () => rmSync(baselineDir, { recursive: true, force: true }));
  process.on("SIGINT", () => process.exit(130));
  execFileSync("sh", ["-c", `git archive --format=tar ${revision} app/features/pdf | tar -x --strip-components=3 -C "${baselineDir}"`], { cwd: root });
}
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(file).href)) as T;

const baseline = {
  render: (await load<{ renderReportPdf: Renderer }>(path.join(baselineDir, "report-pdf.server.ts"))).renderReportPdf,
  EmbeddedFont: (await load<{ EmbeddedFont: new (bytes: Uint8Array) => HandWrittenFont }>(path.join(baselineDir, "embedded-font.server.ts"))).EmbeddedFont,
  scripts: await load<ScriptFonts>(path.join(baselineDir, "script-fonts.server.ts")),
};
const current = {
  render: (await load<{ renderReportPdf: Renderer }>(path.join(root, "app/features/pdf/report-pdf.server.ts"))).renderReportPdf,
  FontSubsetter: (
    await load<{ FontSubsetter: new (bytes: Uint8Array) => { subset(ids: Iterable<number>, options?: { renumber?: boolean }): Uint8Array } }>(
      path.join(root, "app/features/pdf/font-subset.server.ts"),
    )
  ).FontSubsetter,
};

// ---------------------------------------------------------------------------------------------
// Measuring.

const MIXED: Record<ScriptFamily, string> = {
  sc: "王小明今天在学校过得很好，老师说他上课很专心。",
  jp: "山田太郎さんは毎日学校へ行きます。",
  kr: "김민준 학생은 수업 시간에 집중을 잘 합니다.",
  arabic: "محمد الأحمد يحب القراءة، وعمره 12 سنة.",
  hebrew: "דוד כהן אוהב לקרוא ספרים (100%).",
  emoji: "👍 ❤️ 🎉 😀 ✅ 👍🏽",
};

const median = (values: number[], p = 50) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;
const ms = (value: number) => `${value.toFixed(3)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/**
 * The CPU time (user + system, which time spent waiting for a core does not inflate) per call of `a`
 * and of `b`: `count` samples each of `batch` calls, after a warm-up, the two taking turns and
 * alternating which goes first.
 */
function alternate(a: () => unknown, b: () => unknown, count = samples, batch = 10): [number[], number[]] {
  for (let i = 0; i < 20; i++) {
    a();
    b();
  }
  const times: [number[], number[]] = [[], []];
  const timed = (run: () => unknown, into: number[]) => {
    const start = process.cpuUsage();
    for (let i = 0; i < batch; i++) run();
    const used = process.cpuUsage(start);
    into.push((used.user + used.system) / 1000 / batch);
  };
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0) {
      timed(a, times[0]);
      timed(b, times[1]);
    } else {
      timed(b, times[1]);
      timed(a, times[0]);
    }
  }
  return times;
}

type Timing = { program: number[]; embedded: number[] };
type Row = { font: string; glyphs: number; ours: Timing; hb: Timing; oursSize: [number, number]; hbSize: [number, number]; prepare: number };
const rows: Row[] = [];
const require = createRequire(import.meta.url);

// The script fonts: the glyphs HarfBuzz's shaping gives each sample text.
const SCRIPT_FILES: Record<ScriptFamily, string> = {
  hebrew: "@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf",
  arabic: "@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf",
  sc: "@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf",
  jp: "@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf",
  kr: "@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf",
  emoji: "@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf",
};

function scriptFontRow(family: ScriptFamily): Row {
  const text = MIXED[family];
  const face = baseline.scripts.scriptFace(family, "normal");
  const use = new baseline.scripts.ScriptFontUse(face);
  const shaped = face.hb.shape(text, 0, text.length, family === "arabic" || family === "hebrew");
  for (const glyph of shaped) use.cid(glyph.gid, text.slice(glyph.cluster, glyph.cluster + 1));
  const ids = [0, ...new Set(shaped.map((glyph) => glyph.gid))];
  const bytes = new Uint8Array(readFileSync(require.resolve(SCRIPT_FILES[family])));
  const started = performance.now();
  const hb = new current.FontSubsetter(bytes);
  const prepare = performance.now() - started;
  const [oursProgramTimes, hbProgramTimes] = alternate(
    () => use.fontProgram(),
    () => hb.subset(ids, { renumber: true }),
  );
  const [oursTimes, hbTimes] = alternate(
    () => deflateSync(use.fontProgram()),
    () => deflateSync(hb.subset(ids, { renumber: true })),
  );
  const oursProgram = use.fontProgram();
  const hbProgram = hb.subset(ids, { renumber: true });
  return {
    font: path.basename(SCRIPT_FILES[family], ".ttf").replace("_400", "-"),
    glyphs: ids.length,
    ours: { program: oursProgramTimes, embedded: oursTimes },
    hb: { program: hbProgramTimes, embedded: hbTimes },
    oursSize: [oursProgram.length, deflateSync(oursProgram).length],
    hbSize: [hbProgram.length, deflateSync(hbProgram).length],
    prepare,
  };
}

if (scriptFontOnly) {
  console.log(JSON.stringify(scriptFontRow(scriptFontOnly)));
  process.exit(0);
}
// Noto Sans: the glyphs of every character the benchmarks' report prints.
const latinReport = buildReport();
const generatedAt = new Date("2026-03-14T10:00:00Z");
const outDir = path.join(root, "data", "bench", "font-subset");
mkdirSync(outDir, { recursive: true });
const save = (name: string, bytes: Uint8Array) => {
  const file = path.join(outDir, name);
  writeFileSync(file, bytes);
  return file;
};
const pdfText = (file: string) => execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" });
const printed = pdfText(save("text-probe.pdf", baseline.render(latinReport, { generatedAt })));

for (const [style, file] of [
  ["Regular", "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf"],
  ["Bold", "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf"],
] as const) {
  const bytes = new Uint8Array(readFileSync(require.resolve(file)));
  const ours = new baseline.EmbeddedFont(bytes);
  const started = performance.now();
  const hb = new current.FontSubsetter(bytes);
  const prepare = performance.now() - started;
  const metadata = ours.documentMetadata();
  const ids = [0, ...new Set(Array.from(printed.replace(/\s/g, ""), (char) => metadata.characterToGlyph(char.codePointAt(0)!)))];
  const [oursProgramTimes, hbProgramTimes] = alternate(
    () => ours.subsetFontProgram(ids),
    () => hb.subset(ids),
  );
  const [oursTimes, hbTimes] = alternate(
    () => ours.deflatedFontProgram(ids),
    () => deflateSync(hb.subset(ids)),
  );
  const oursProgram = ours.deflatedFontProgram(ids);
  const hbProgram = hb.subset(ids);
  rows.push({
    font: `NotoSans-${style}`,
    glyphs: ids.length,
    ours: { program: oursProgramTimes, embedded: oursTimes },
    hb: { program: hbProgramTimes, embedded: hbTimes },
    oursSize: [oursProgram.length, oursProgram.data.length],
    hbSize: [hbProgram.length, deflateSync(hbProgram).length],
    prepare,
  });
}

for (const family of Object.keys(MIXED) as ScriptFamily[]) {
  const output = execFileSync(process.execPath, [...process.execArgv, import.meta.filename, String(samples), `--script-font=${family}`], {
    cwd: root,
    encoding: "utf8",
  });
  rows.push(JSON.parse(output.trim().split("\n").at(-1)!) as Row);
}

console.log(`hand-written subsetters from ${revision.slice(0, 12)}; node ${process.version}; CPU time per subset, median of ${samples} samples of 10`);
console.log("(p90 in brackets): the program alone, then compressed as it goes into the PDF.");
console.log("");
console.log(
  "| font | glyphs | hand-written: program | compressed | HarfBuzz: program | compressed | size, hand-written: raw / compressed | HarfBuzz | HarfBuzz's preparation, once |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
const timing = (values: number[]) => `${ms(median(values))} (${median(values, 90).toFixed(3)})`;
for (const row of rows) {
  console.log(
    `| ${row.font} | ${row.glyphs} | ${timing(row.ours.program)} | ${timing(row.ours.embedded)} | ${timing(row.hb.program)} | ${timing(row.hb.embedded)} | ` +
      `${kb(row.oursSize[0])} / ${kb(row.oursSize[1])} | ${kb(row.hbSize[0])} / ${kb(row.hbSize[1])} | ${row.prepare.toFixed(1)} ms |`,
  );
}

// ---------------------------------------------------------------------------------------------
// Whole reports, through each renderer.

const everyScript: ReportDetail = {
  ...latinReport,
  studentName: "王小明",
  respondent: { kind: "student", id: "stu_1", name: "王小明", externalId: null, dateOfBirth: null, grade: "5", age: 11 },
  organization: { id: "org_1", name: "מרכז דוד כהן — مركز محمد" },
  answers: latinReport.answers.map((answer, index) => (answer.type === "TEXT" ? { ...answer, text: Object.values(MIXED)[index % 6]! } : answer)),
};

console.log("");
console.log(`CPU time per render, median of ${Math.max(20, Math.round(samples / 2))}.`);
console.log("");
console.log(
  "| report | hand-written: per render | HarfBuzz | hand-written PDF | HarfBuzz PDF | qpdf --check | same text (pdftotext) | same pixels (pdftoppm) |",
);
console.log("| --- | ---: | ---: | ---: | ---: | --- | --- | --- |");
let failed = false;
for (const [name, report] of [
  ["Latin", latinReport],
  ["every script", everyScript],
] as const) {
  const [oursTimes, hbTimes] = alternate(
    () => baseline.render(report, { generatedAt }),
    () => current.render(report, { generatedAt }),
    Math.max(20, Math.round(samples / 2)),
    1,
  );
  const slug = name.replace(/\s/g, "-").toLowerCase();
  const oursPdf = baseline.render(report, { generatedAt });
  const hbPdf = current.render(report, { generatedAt });
  const files = [save(`hand-written-${slug}.pdf`, oursPdf), save(`harfbuzz-${slug}.pdf`, hbPdf)];
  const checks = files.map((file) => {
    try {
      return execFileSync("qpdf", ["--check", file], { encoding: "utf8" }).includes("No syntax or stream encoding errors");
    } catch {
      return false;
    }
  });
  const [oursText, hbText] = files.map(pdfText);
  const same = oursText === hbText;
  // The pages as poppler draws them at 100 dpi, as one PPM per page on standard output.
  const [oursPages, hbPages] = files.map((file) => execFileSync("pdftoppm", ["-r", "100", file], { maxBuffer: 256 * 1024 * 1024 }));
  const samePages = Buffer.compare(oursPages!, hbPages!) === 0;
  if (!same || !samePages || checks.includes(false)) failed = true;
  console.log(
    `| ${name} | ${ms(median(oursTimes))} | ${ms(median(hbTimes))} | ${kb(oursPdf.byteLength)} | ${kb(hbPdf.byteLength)} | ` +
      `${checks.map((ok) => (ok ? "passes" : "FAILS")).join(" / ")} | ${same ? "yes" : "NO"} | ${samePages ? "yes" : "NO"} |`,
  );
}
console.log("");
console.log(`PDFs in ${path.relative(root, outDir)}/ (pdftoppm -png -r 80 <file> <prefix> to look at them).`);
if (failed) process.exitCode = 1;
