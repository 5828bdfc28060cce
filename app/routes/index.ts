import { redirect } from "react-router";
import type { Route } from "./+types/index";
import { preferredLocale } from "~/lib/locale-cookie.server.ts";
import { paths } from "~/lib/paths.ts";

/**
 * `/` opens the home page in the remembered language (the `locale` cookie), else the best match
 * of the browser's Accept-Language (es* → es, pt* → pt-BR), else English.
 */
export const loader = ({ request }: Route.LoaderArgs) =>
  redirect(paths.home(preferredLocale(request)), { headers: { Vary: "Cookie, Accept-Language", "Cache-Control": "private, no-cache" } });
