import { isRouteErrorResponse } from "react-router";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { paths } from "~/lib/paths.ts";
import { LinkButton } from "./button.tsx";

/**
 * What a developer sees of an unexpected error (only while running `npm run dev`): its message's
 * first line, and nothing at all when the message may quote SQL or a database's answer, which can
 * hold people's data. Stack traces and file paths stay in the server's log.
 */
export function developmentDetails(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const firstLine = error.message.split("\n", 1)[0]!.slice(0, 300);
  if (/prisma|sql|select |insert |update |delete |constraint|database|\/[\w.-]+\//i.test(firstLine)) return undefined;
  return firstLine || undefined;
}

/** The friendly 404, 403 and 500 in the page's language; error boundaries render it. */
export function ErrorPage({ status, details }: { status: number; details?: string | undefined }) {
  const t = useT();
  const locale = useLocale();
  const [title, text] =
    status === 404
      ? [t.errors.notFoundTitle, t.errors.notFoundText]
      : status === 403
        ? [t.errors.forbiddenTitle, t.errors.forbiddenText]
        : [t.errors.errorTitle, t.errors.errorText];
  return (
    <div className="mx-auto max-w-lg py-16 text-center sm:py-24">
      <p className="text-sm font-semibold text-indigo-700">{t.errors.errorCode(String(status))}</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
      <p className="mt-4 text-slate-600">{text}</p>
      <LinkButton to={paths.home(locale)} variant="primary" className="mt-8" reloadDocument>
        {t.errors.goHome}
      </LinkButton>
      {details ? <pre className="mt-8 overflow-auto rounded-md bg-slate-900 p-4 text-left text-xs text-slate-100">{details}</pre> : null}
    </div>
  );
}

/** The status an error boundary should show for whatever was thrown. */
export const errorStatus = (error: unknown): number => (isRouteErrorResponse(error) ? error.status : 500);
