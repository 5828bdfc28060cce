import { isRouteErrorResponse } from "react-router";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { paths } from "~/lib/paths.ts";
import { LinkButton } from "./button.tsx";

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
