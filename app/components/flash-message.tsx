import { useRouteLoaderData } from "react-router";
import { useT } from "~/i18n/hooks.ts";
import type { rootLoader } from "~/lib/root-loader.server.ts";
import { Alert } from "./alert.tsx";

/**
 * The one-time message an action left with `redirectWithFlash` (app/lib/flash.server.ts). The
 * app shell shows it above every signed-in page; other layouts can place it too.
 */
export function FlashMessage({ className }: { className?: string }) {
  const t = useT();
  const flash = useRouteLoaderData<typeof rootLoader>("root")?.flash;
  if (!flash) return null;
  return <Alert key={flash.id} tone={flash.kind} className={className} title={t.flash[flash.key]} />;
}
