// biome-ignore-all lint/correctness/noComponentHookFactories: the baseline builds its routes per caller, once per benchmark run, as data of a static router.
import { renderToString } from "react-dom/server";
import { Outlet, StaticRouterProvider, createStaticHandler, createStaticRouter, useLoaderData } from "react-router";
import { AppShell } from "../../app/components/app-shell.tsx";
import Reports from "../../app/routes/reports.tsx";
import { parseSubmission } from "@conform-to/react/future";
import { listReportsQuery } from "../../app/features/reports/report-schemas.ts";
import { translations } from "../../app/i18n/dictionaries.ts";
import { clientValidation, pageResult } from "../../app/lib/client-validation.server.ts";
import { pageChoices, queryReports, type PageRenderer } from "./baseline-server.ts";
import type { SqlClient } from "../../app/lib/sql-client.server.ts";

/**
 * The server-rendered reports page without the framework: `react-dom/server` renders the app's
 * own components (the signed-in shell and the reports page) with the same data, in a static data
 * router because the components read their loader data and the URL through React Router hooks.
 * The document around them is a plain one: the app's root adds styles, scripts and the hydration
 * data, which is part of what the comparison measures.
 */
type Caller = Parameters<PageRenderer>[1];

function buildRoutes(client: SqlClient, caller: Caller) {
  return [
    {
      id: "root",
      path: "/",
      loader: () => ({ timeZone: "UTC", flash: null }),
      Component: () => (
        <html lang="en">
          <head>
            <meta charSet="utf-8" />
            <title>Reports</title>
          </head>
          <body>
            <Outlet />
          </body>
        </html>
      ),
      children: [
        {
          id: "routes/signed-in",
          path: ":locale",
          loader: () => ({ user: { name: caller.name, email: caller.email, role: caller.role, image: caller.image }, csrfToken: "baseline" }),
          Component: function Shell() {
            const data = useLoaderData() as { user: Parameters<typeof AppShell>[0]["user"]; csrfToken: string };
            return (
              <AppShell user={data.user} csrfToken={data.csrfToken}>
                <Outlet />
              </AppShell>
            );
          },
          children: [
            {
              id: "routes/reports",
              path: "reports",
              loader: async ({ request }: { request: Request }) => {
                const url = new URL(request.url);
                const [data, choices] = await Promise.all([
                  queryReports(client, caller, {
                    page: Number(url.searchParams.get("page") ?? 1),
                    limit: Number(url.searchParams.get("limit") ?? 20),
                    search: url.searchParams.get("search") ?? undefined,
                  }),
                  pageChoices(client, caller),
                ]);
                // The filters' client validation as the app's loader gives it (data for the page, not validation done here).
                const filters = {
                  validation: clientValidation(listReportsQuery.pick({ search: true, from: true, to: true, formId: true, groupId: true }), translations("en")),
                  result: pageResult(parseSubmission(url.searchParams), { fieldErrors: {}, formError: null }),
                };
                return { ...data, ...choices, filters, reports: data.reports.map((r) => ({ ...r, completedAt: new Date(r.completedAt) })), errors: {} };
              },
              Component: function ReportsPage() {
                const loaderData = useLoaderData() as Parameters<typeof Reports>[0]["loaderData"];
                return <Reports {...({ loaderData } as Parameters<typeof Reports>[0])} />;
              },
            },
          ],
        },
      ],
    },
  ];
}

export const renderReportsPage: PageRenderer = async (client, caller, url) => {
  const handler = createStaticHandler(buildRoutes(client, caller));
  const context = await handler.query(new Request(url.toString().replace("http://baseline", "http://localhost")));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  return `<!DOCTYPE html>${renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />)}`;
};
