import { renderPdf } from "~/features/pdf/pdf-renderer.server.ts";
import { reportPdfFilename } from "~/features/pdf/report-pdf.server.ts";
import { exportReportBody } from "~/features/reports/report-schemas.ts";
import { getReport } from "~/features/reports/reports.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint({
  POST: async ({ request, context }) => {
    const actor = requireStaff(actorOf(context));
    const { submissionId } = await readJsonBody(request, exportReportBody);
    const report = await getReport(actor, submissionId);
    const pdf = await renderPdf(context, report, { locale: actor.locale });
    return new Response(pdf, {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="${reportPdfFilename(report)}"`,
        "Cache-Control": "no-store",
      },
    });
  },
});

export const loader = handle;
export const action = handle;
