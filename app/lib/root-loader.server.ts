import { data, type LoaderFunctionArgs } from "react-router";
import { DEFAULT_ORGANIZATION_KIND } from "~/features/organization/organization-kinds.ts";
import { actorContext } from "./context.server.ts";
import { readFlash } from "./flash.server.ts";

/**
 * The root route's loader, apart from the root module so that the components and hooks that read
 * its data (`useRouteLoaderData<typeof rootLoader>("root")`) take their type from here rather than
 * from the module that renders them.
 *
 * What every page needs: the time zone dates are shown in and the kind whose words the page says
 * (the signed-in organization's), and a one-time flash message.
 */
export async function rootLoader({ request, context }: LoaderFunctionArgs) {
  const { flash, setCookie } = await readFlash(request);
  const actor = context.get(actorContext);
  const timeZone = actor?.timeZone ?? "UTC";
  const organizationKind = actor?.organizationKind ?? DEFAULT_ORGANIZATION_KIND;
  return data({ timeZone, organizationKind, flash }, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
}
