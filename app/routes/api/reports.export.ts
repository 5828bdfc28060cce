import { STAFF } from "~/lib/api-operation.ts";
import { renderPdf } from "~/features/pdf/pdf-renderer.server.ts";
import { reportPdfContentDisposition } from "~/features/pdf/report-pdf-filename.ts";
import { exportReportBody, exportReportsQuery } from "~/features/reports/report-schemas.ts";
import { reportExportResponse } from "~/features/reports/report-export-response.server.ts";
import { getReport, recordReportRead } from "~/features/reports/reports.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { readJsonBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      return reportExportResponse(context, actor, readQuery(request, exportReportsQuery));
    },
    POST: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      const { submissionId } = await readJsonBody(request, exportReportBody);
      const report = await getReport(actor, submissionId);
      const pdf = await renderPdf(context, report, { locale: actor.locale, organizationKind: actor.organizationKind });
      await recordReportRead(actor, report, "report.pdf_read");
      return new Response(pdf, {
        headers: {
          "Content-Type": "application/pdf",
          "Content-Disposition": reportPdfContentDisposition(report),
          "Cache-Control": "no-store",
        },
      });
    },
  },
  {
    GET: {
      operationId: "exportReports",
      tag: "Reports",
      auth: "session",
      roles: STAFF,
      summary:
        "The reports list, with its filters, as a CSV or XLSX download: one row per completed submission; with formId, the answer and score of every question.",
      query: exportReportsQuery,
      success: {
        status: 200,
        description:
          "The file, streamed (Content-Disposition: attachment). Times are in the organization's time zone. " +
          "CSV: UTF-8 with a BOM, CR LF between records, RFC 4180 quoting (a field holding the separator, a quote, CR or LF is quoted); " +
          "times with their offset (`2026-11-29T02:53:00-03:00`); numbers with a decimal point, or a decimal comma with `delimiter=semicolon`; " +
          "a text starting with =, +, -, @, tab or CR, or holding one of them right after `,` or `;`, begins with `'` (OWASP CSV injection), " +
          "and one holding it after a separator is quoted too. " +
          "XLSX: numbers and dates as such; the assignedAt and completedAt cells hold the organization's local date and time, and their headers name its zone (`completedAt (America/Sao_Paulo)`).",
        contentType: ["text/csv", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
        headers: ["Content-Disposition"],
      },
      errors: [400, 401, 403, 404],
      codes: { 503: ["BUSY"] },
    },
    POST: {
      operationId: "exportReport",
      tag: "Reports",
      auth: "session",
      roles: STAFF,
      summary: "The report of one completed submission as a PDF download.",
      body: { schema: exportReportBody, types: ["json"] },
      success: { status: 200, description: "The PDF (Content-Disposition: attachment).", contentType: "application/pdf", headers: ["Content-Disposition"] },
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["NOT_COMPLETED"], 503: ["BUSY"] },
    },
  },
);

export const loader = handle;
export const action = handle;
