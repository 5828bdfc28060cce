import { useRouteLoaderData } from "react-router";
import type { loader as signedInLoader } from "~/routes/signed-in.tsx";

/**
 * The signed-in layout issues the CSRF token once (app/lib/auth/csrf.server.ts); every page form
 * that posts puts it in a hidden field and its action checks it through `readPagePost` (app/lib/page.server.ts).
 */
export function useCsrfToken(): string {
  return useRouteLoaderData<typeof signedInLoader>("routes/signed-in")?.csrfToken ?? "";
}

export function CsrfInput() {
  return <input type="hidden" name="csrfToken" value={useCsrfToken()} />;
}
