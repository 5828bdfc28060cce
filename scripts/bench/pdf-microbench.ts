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
import { buildReport } from "./pdf-sample-report.ts";

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
