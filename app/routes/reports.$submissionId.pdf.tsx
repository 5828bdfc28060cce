import type { Route } from "./+types/reports.$submissionId.pdf";
import { PDF_RETRY_AFTER_SECONDS, renderPdf } from "~/features/pdf/pdf-renderer.server.ts";
import { reportPdfContentDisposition } from "~/features/pdf/report-pdf-filename.ts";
import { ApiError } from "~/lib/problem.server.ts";
import { serviceStatusFetchResponse } from "~/lib/service-status.server.ts";
import { reportForPage } from "~/features/reports/report-page.server.ts";
import { questionImageFiles } from "~/features/forms/form-images.server.ts";
import { recordReportRead } from "~/features/reports/reports.server.ts";
import { actorContext } from "~/lib/context.server.ts";
import { isStaff } from "~/lib/auth/actor.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { pageError } from "~/lib/page.server.ts";

/**
 * `GET /{locale}/reports/:submissionId/pdf`: the report as a PDF download, in the page's language
 * and the browser's time zone. The file is answered by this middleware before any loader runs;
 * when there is nothing to download (another teacher's report, a pending test, a student's
 * login) it lets the request through to the loader below, which throws the friendly 404 or 403
 * page inside the shell, as the report page itself would.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, context, params }, next) => {
    const actor = context.get(actorContext);
    if (!actor || !isStaff(actor)) return next();
    let found: Awaited<ReturnType<typeof reportForPage>> | null = null;
    try {
      found = await reportForPage(context, params.submissionId);
    } catch {
      return next();
    }
    let pdf: Uint8Array<ArrayBuffer>;
    try {
      pdf = await renderPdf(context, found.report, {
        locale: resolveLocale(params.locale),
        timeZone: actor.timeZone,
        organizationKind: actor.organizationKind,
        images: await questionImageFiles(found.report.answers.map((answer) => answer.questionId)),
      });
    } catch (error) {
      // Every PDF worker busy: the friendly "busy" page, with Retry-After.
      if (error instanceof ApiError && error.status === 503) {
        return serviceStatusFetchResponse("busy", new URL(request.url).pathname, { retryAfterSeconds: PDF_RETRY_AFTER_SECONDS });
      }
      throw error;
    }
    await recordReportRead(actor, found.report, "report.pdf_read");
    return new Response(pdf, {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": reportPdfContentDisposition(found.report),
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  },
];

export async function loader({ context, params }: Route.LoaderArgs) {
  await reportForPage(context, params.submissionId);
  // Only reached when the report appeared between the middleware and here: ask for it again.
  throw pageError(404);
}

export default function ReportPdf() {
  return null;
}
