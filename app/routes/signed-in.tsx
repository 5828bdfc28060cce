import { Form, Outlet, redirect } from "react-router";
import type { Route } from "./+types/signed-in";
import { issueCsrfToken } from "~/lib/auth/csrf.server.ts";
import { actorContext } from "~/lib/context.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";

/** Pages below need a session; without one the visitor is sent to the sign-in page. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = context.get(actorContext);
  const locale = resolveLocale(params.locale);
  if (!actor) throw redirect(`/${locale}/login`);
  const { token, setCookie } = await issueCsrfToken(request);
  const body = { user: { name: actor.name, role: actor.role, email: actor.email }, csrfToken: token, locale };
  return setCookie ? Response.json(body, { headers: { "Set-Cookie": setCookie } }) : body;
}

export default function SignedInLayout({ loaderData }: Route.ComponentProps) {
  const { user, csrfToken, locale } = loaderData as { user: { name: string; role: string }; csrfToken: string; locale: string };
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between px-6 py-3">
          <span className="font-semibold">Assessment Service</span>
          <div className="flex items-center gap-4 text-sm">
            <span>
              {user.name} <span className="text-slate-500">({user.role.toLowerCase().replace("_", " ")})</span>
            </span>
            <Form method="post" action="/api/auth/signout" reloadDocument>
              <input type="hidden" name="csrfToken" value={csrfToken} />
              <input type="hidden" name="locale" value={locale} />
              <button className="rounded-md border border-slate-300 px-3 py-1 hover:bg-slate-100" type="submit">
                Sign out
              </button>
            </Form>
          </div>
        </div>
      </header>
      <Outlet />
    </div>
  );
}
