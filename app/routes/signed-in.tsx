import { Outlet, data, redirect, useRouteError, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/signed-in";
import { AppShell } from "~/components/app-shell.tsx";
import { developmentDetails, ErrorPage, errorStatus } from "~/components/error-page.tsx";
import { useT } from "~/i18n/hooks.ts";
import { issueCsrfToken } from "~/lib/auth/csrf.server.ts";
import { actorContext } from "~/lib/context.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { paths } from "~/lib/paths.ts";

/**
 * The layout of every page behind the session. Its middleware runs before any loader or action
 * below it, so a page never sees a request without a caller: the visitor is sent to sign in.
 * Pages get the caller with `pageActor(context)` (app/lib/page.server.ts).
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ context, params }, next) => {
    if (!context.get(actorContext)) throw redirect(paths.login(resolveLocale(params.locale)));
    return next();
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = context.get(actorContext)!;
  const { token, setCookie } = await issueCsrfToken(request);
  const user = { name: actor.name, email: actor.email, role: actor.role, image: actor.image };
  return data({ user, csrfToken: token }, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}

export default function SignedInLayout({ loaderData }: Route.ComponentProps) {
  return (
    <AppShell user={loaderData.user} csrfToken={loaderData.csrfToken}>
      <Outlet />
    </AppShell>
  );
}

/** A page's 403, 404 or failure shown inside the shell, so the navigation stays at hand. */
export function ErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  const shell = useRouteLoaderData<typeof loader>("routes/signed-in");
  const status = errorStatus(error);
  const details = import.meta.env.DEV ? developmentDetails(error) : undefined;
  const title = `${status === 404 ? t.errors.notFoundTitle : status === 403 ? t.errors.forbiddenTitle : t.errors.errorTitle} · ${t.app.name}`;
  if (!shell) {
    return (
      <main id="main-content" className="px-4">
        <title>{title}</title>
        <ErrorPage status={status} details={details} />
      </main>
    );
  }
  return (
    <AppShell user={shell.user} csrfToken={shell.csrfToken}>
      <title>{title}</title>
      <ErrorPage status={status} details={details} />
    </AppShell>
  );
}
