import { createContext, type RouterContextProvider } from "react-router";
import { ApiError } from "~/lib/problem.server.ts";
import type { ReportDetail } from "../reports/report-schemas.ts";
import { renderReportPdf, type ReportPdfOptions } from "./report-pdf.server.ts";

/**
 * Renders a report's PDF. The production server (server/pdf-pool.ts) puts a pool of worker threads
 * here, so a render (≈12 ms of CPU) never holds up the event loop that serves everyone else;
 * without it (`npm run dev`) the PDF is rendered in the request, as before.
 */
export type PdfRenderer = (report: ReportDetail, options: ReportPdfOptions) => Promise<Uint8Array>;

export const pdfRendererContext = createContext<PdfRenderer>(async (report, options) => renderReportPdf(report, options));

/** How the pool says its queue is full (server/pdf-pool.ts); a name, because the pool lives outside the app bundle. */
export const PDF_QUEUE_FULL = "PdfQueueFullError";
export const PDF_RETRY_AFTER_SECONDS = 2;

/** The report's PDF; 503 with Retry-After when every worker is busy and the queue is full. */
export async function renderPdf(context: Readonly<RouterContextProvider>, report: ReportDetail, options: ReportPdfOptions): Promise<Uint8Array<ArrayBuffer>> {
  try {
    const bytes = await context.get(pdfRendererContext)(report, options);
    return new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);
  } catch (error) {
    if (error instanceof Error && error.name === PDF_QUEUE_FULL) {
      throw new ApiError(503, "BUSY", "Too many PDFs are being made right now. Try again in a moment.", undefined, {
        "Retry-After": String(PDF_RETRY_AFTER_SECONDS),
      });
    }
    throw error;
  }
}
