import { Outlet, data, redirect } from "react-router";
import type { Route } from "./+types/locale";
import { isLocale } from "~/lib/i18n.ts";
import { rememberedLocale, rememberLocaleCookie } from "~/lib/locale-cookie.server.ts";
import { paths } from "~/lib/paths.ts";

/**
 * Remembers the language of the page being read (the `locale` cookie, a year), so `/` opens in it
 * next time. Following a language switcher link is therefore all it takes to switch.
 */
export const middleware: Route.MiddlewareFunction[] = [
  async ({ request, params }, next) => {
    const locale = params.locale;
    // Before any page below runs (the signed-in layout would send an unknown locale to sign in).
    if (!isLocale(locale)) throw data(null, { status: 404 });
    const response = await next();
    if (request.method === "GET" && rememberedLocale(request) !== locale && response.status < 400) {
      response.headers.append("Set-Cookie", rememberLocaleCookie(locale));
    }
    return response;
  },
];

/** Every page lives under a known locale; any other first segment is a 404. `/es` opens `/es/home`. */
export function loader({ params, request }: Route.LoaderArgs) {
  if (!isLocale(params.locale)) throw data(null, { status: 404 });
  if (new URL(request.url).pathname.replace(/\/+$/, "") === `/${params.locale}`) throw redirect(paths.home(params.locale));
  return null;
}

export default function LocaleLayout() {
  return <Outlet />;
}
