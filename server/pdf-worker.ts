import { setPriority } from "node:os";
import { move } from "piscina";
import type { ReportDetail } from "../app/features/reports/report-schemas.ts";
import { renderReportPdf, type ReportPdfOptions } from "../app/features/pdf/report-pdf.server.ts";

// A render may wait; a request on the event loop should not. On Linux the nice value is per thread,
// so this lowers only this worker: when the cores are all busy the scheduler runs the server's
// main thread first. (Elsewhere it may lower the whole process, or be refused: both harmless.)
try {
  setPriority(10);
} catch {
  // Not allowed here: the worker keeps the normal priority.
}

/** One PDF render in a worker thread of server/pdf-pool.ts (dates arrive as Dates: structured clone). */
export default function render({ report, options }: { report: ReportDetail; options: ReportPdfOptions }) {
  const bytes = renderReportPdf(report, options);
  // Handed over to the main thread rather than copied.
  return move(bytes);
}
