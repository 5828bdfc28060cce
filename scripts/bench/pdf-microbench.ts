/**
 * Micro-benchmark of the report PDF renderer: one realistic 30-question report rendered N times.
 *
 *   npx tsx scripts/bench/pdf-microbench.ts [renders=1000] [--locale=es] [--out=/tmp/report.pdf] [--impl=file.ts]
 *   node --expose-gc --import tsx scripts/bench/pdf-microbench.ts 1000     (memory measured after a full GC)
 *   node --import tsx --cpu-prof --cpu-prof-dir=/tmp/prof scripts/bench/pdf-microbench.ts 200
 *   npx tsx scripts/bench/pdf-microbench.ts 100 --alloc      (where the allocated bytes come from)
 *
 * Prints the first (cold) render, median and p95 ms per render, and RSS / heap before and after the
 * run (after a GC when node runs with --expose-gc).
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { renderReportPdf as RenderReportPdf } from "../../app/features/pdf/report-pdf.server.ts";
import type { ReportDetail } from "../../app/features/reports/report-schemas.ts";

const args = process.argv.slice(2);
const renders = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 1000);
const locale = args.find((arg) => arg.startsWith("--locale="))?.slice("--locale=".length) ?? "en";
const out = args.find((arg) => arg.startsWith("--out="))?.slice("--out=".length);
// --impl=<file>: benchmark another copy of the renderer (e.g. the previous version, saved with
// `git show HEAD:app/features/pdf/report-pdf.server.ts > app/features/pdf/report-pdf.before.ts`).
const impl = args.find((arg) => arg.startsWith("--impl="))?.slice("--impl=".length);
const { renderReportPdf } = (await import(impl ? pathToFileURL(path.resolve(impl)).href : "../../app/features/pdf/report-pdf.server.ts")) as {
  renderReportPdf: typeof RenderReportPdf;
};

const QUESTIONS = [
  "Over the last four weeks, how often has the respondent found it hard to stay focused on a task until it was finished?",
  "How often does the respondent lose things needed for school or work (books, keys, tools)?",
  "Which of these situations make it harder to concentrate?",
  "How well does the respondent follow instructions with several steps?",
  "Describe a recent situation in which the respondent handled frustration well.",
  "How often does the respondent interrupt others during conversations or games?",
];
const OPTIONS = [
  ["Never", "Rarely", "Sometimes", "Often"],
  ["At home", "At school", "With friends", "During sport"],
  ["Not at all", "A little", "Quite a lot", "Very much"],
];
const TEXT_ANSWERS = [
  "Thảo Nguyễn said José Muñoz stayed calm when the group project was late; he asked Łukasz Wójcik for help and finished on time.",
  "Mostly in the afternoons, after lunch; much better with short breaks. Søren and Åsa noticed the same at the after-school club.",
];

function buildReport(): ReportDetail {
  const types = ["SINGLE_CHOICE", "MULTIPLE_CHOICE", "SCALE", "SINGLE_CHOICE", "TEXT"] as const;
  const answers: ReportDetail["answers"] = Array.from({ length: 30 }, (_, i) => {
    const type = types[i % types.length]!;
    const options = OPTIONS[i % OPTIONS.length]!;
    return {
      questionId: `q${i + 1}`,
      questionText: `${QUESTIONS[i % QUESTIONS.length]} (${i + 1})`,
      type,
      optionTexts: type === "TEXT" ? [] : type === "MULTIPLE_CHOICE" ? [options[0]!, options[2]!] : [options[i % 4]!],
      text: type === "TEXT" ? TEXT_ANSWERS[i % TEXT_ANSWERS.length]! : null,
      score: type === "TEXT" ? 0 : i % 4,
      maxScore: type === "TEXT" ? 0 : 3,
    };
  });
  const totalScore = answers.reduce((sum, answer) => sum + answer.score, 0);
  const maxScore = answers.reduce((sum, answer) => sum + answer.maxScore, 0);
  return {
    id: "sub_bench_0001",
    studentName: "José Muñoz",
    formTitle: "Attention and self-regulation screening (ages 8–14)",
    completedAt: new Date("2026-03-12T23:30:00Z"),
    assignedAt: new Date("2026-03-02T09:15:00Z"),
    totalScore,
    maxScore,
    percentage: (totalScore / maxScore) * 100,
    scoreLabel: "Monitor",
    scoreColor: "#F0B429",
    assignedByName: "Łukasz Wójcik",
    form: { id: "form_1", title: "Attention and self-regulation screening (ages 8–14)", category: "Neurodevelopment", type: "Screening" },
    respondent: { kind: "student", id: "stu_1", name: "José Muñoz", grade: "5º B", age: 11 },
    assignedBy: { id: "usr_1", name: "Łukasz Wójcik" },
    organization: { id: "org_1", name: "Clínica Zoë Ørsted — Thảo Nguyễn Centre" },
    scoreRanges: [
      { min: 0, max: 20, label: "Typical", color: "#3EBD93" },
      { min: 21, max: 40, label: "Monitor", color: "#F0B429" },
      { min: 41, max: 60, label: "Needs attention", color: "#D64545" },
      { min: 61, max: 90, label: "Refer to specialist", color: "#8E1B1B" },
    ],
    answers,
  };
}

type AllocationNode = {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
};

const report = buildReport();
const generatedAt = new Date("2026-03-14T10:00:00Z");
const gc = (globalThis as { gc?: () => void }).gc;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const memory = () => {
  gc?.();
  const { rss, heapTotal, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heapTotal, heapUsed, external, arrayBuffers };
};

const before = memory();
let start = performance.now();
const first = renderReportPdf(report, { locale, generatedAt });
const cold = performance.now() - start;
if (out) writeFileSync(out, first);

// A few warm-up renders so the JIT settles before timing.
for (let i = 0; i < 20; i++) renderReportPdf(report, { locale, generatedAt });
const afterWarmup = memory();

// --alloc: sample allocations (including the garbage) during the timed renders and list the top sites.
const allocationSampling = args.includes("--alloc") ? new Session() : null;
if (allocationSampling) {
  allocationSampling.connect();
  await allocationSampling.post("HeapProfiler.startSampling", {
    samplingInterval: 16384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}

const times: number[] = [];
const trail: string[] = [];
let bytes = 0;
for (let i = 0; i < renders; i++) {
  start = performance.now();
  bytes = renderReportPdf(report, { locale, generatedAt }).byteLength;
  times.push(performance.now() - start);
  if ((i + 1) % Math.max(1, Math.floor(renders / 5)) === 0) trail.push(`${i + 1}: ${mb(process.memoryUsage().rss)}`);
}
const after = memory();

if (allocationSampling) {
  const { profile } = (await allocationSampling.post("HeapProfiler.stopSampling")) as unknown as { profile: { head: AllocationNode } };
  const bySite = new Map<string, number>();
  const walk = (node: AllocationNode) => {
    const { functionName, url, lineNumber } = node.callFrame;
    const site = `${functionName || "(anonymous)"} ${url.split("/").at(-1)}:${lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    node.children.forEach(walk);
  };
  walk(profile.head);
  const total = [...bySite.values()].reduce((sum, size) => sum + size, 0);
  console.log(`allocated ≈ ${mb(total / renders)} per render; top sites:`);
  for (const [site, size] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`  ${((size / total) * 100).toFixed(1).padStart(5)}%  ${site}`);
  }
}

times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.ceil((p / 100) * times.length) - 1)]!;
const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
console.log(`renders: ${renders} (+21 warm-up), locale ${locale}, ${report.answers.length} questions, ${bytes} bytes per PDF`);
console.log(`cold first render: ${cold.toFixed(1)} ms`);
console.log(
  `per render: median ${pct(50).toFixed(2)} ms, p95 ${pct(95).toFixed(2)} ms, p99 ${pct(99).toFixed(2)} ms, mean ${mean.toFixed(2)} ms, max ${times.at(-1)!.toFixed(2)} ms`,
);
console.log(`gc between samples: ${gc ? "yes (--expose-gc)" : "no (run with --expose-gc for steadier memory numbers)"}`);
for (const [label, m] of [
  ["before", before],
  ["after warm-up", afterWarmup],
  [`after ${renders}`, after],
] as const) {
  console.log(
    `${label.padEnd(16)} rss ${mb(m.rss)}, heapTotal ${mb(m.heapTotal)}, heapUsed ${mb(m.heapUsed)}, external ${mb(m.external)}, arrayBuffers ${mb(m.arrayBuffers)}`,
  );
}
if (process.env.BENCH_SPACES) {
  const { getHeapSpaceStatistics } = await import("node:v8");
  for (const space of getHeapSpaceStatistics()) console.log(`  ${space.space_name.padEnd(24)} size ${mb(space.space_size)}, used ${mb(space.space_used_size)}`);
}
console.log(`rss during the run (no forced gc): ${trail.join(", ")}`);
console.log(`growth warm-up → end: rss ${mb(after.rss - afterWarmup.rss)}, heapUsed ${mb(after.heapUsed - afterWarmup.heapUsed)}`);
