import { Outlet, data } from "react-router";
import type { Route } from "./+types/locale";
import { isLocale } from "~/lib/i18n.ts";

/** Every page lives under a known locale; any other first segment is a 404. */
export function loader({ params }: Route.LoaderArgs) {
  if (!isLocale(params.locale)) throw data(null, { status: 404 });
  return null;
}

export default function LocaleLayout() {
  return <Outlet />;
}
