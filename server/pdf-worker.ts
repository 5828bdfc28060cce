import type { ReportDetail } from "../app/features/reports/report-schemas.ts";
import { renderReportPdf, type ReportPdfOptions } from "../app/features/pdf/report-pdf.server.ts";

/** One PDF render in a worker thread of server/pdf-pool.ts (dates arrive as Dates: structured clone). */
export default function render({ report, options }: { report: ReportDetail; options: ReportPdfOptions }): Uint8Array {
  return renderReportPdf(report, options);
}
