import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useParams } from "react-router";
import type { Route } from "./+types/root";
import { resolveLocale } from "./lib/i18n.ts";
import { useNonce } from "./lib/nonce.ts";
import { actorMiddleware, crossSiteRequestGuard, securityHeaders } from "./lib/middleware.server.ts";
import "./styles/app.css";

// The cross-site guard runs after the caller is known: it protects sessions, so a request without
// a valid one is simply unauthenticated (401).
export const middleware: Route.MiddlewareFunction[] = [securityHeaders, actorMiddleware, crossSiteRequestGuard];

export function Layout({ children }: { children: React.ReactNode }) {
  const params = useParams();
  const nonce = useNonce();
  return (
    <html lang={resolveLocale(params.locale)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const title = status === 404 ? "Page not found" : status === 403 ? "Not allowed" : "Something went wrong";
  const message =
    status === 404
      ? "The page you asked for does not exist or is not available to you."
      : status === 403
        ? "Your account may not open this page."
        : "We could not show this page. Please try again in a moment.";
  return (
    <main className="mx-auto max-w-lg px-6 py-24 text-center">
      <p className="text-sm font-semibold text-indigo-700">{status}</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mt-4 text-slate-600">{message}</p>
      <a className="mt-8 inline-block rounded-md bg-indigo-700 px-4 py-2 font-medium text-white" href="/">
        Go to the start page
      </a>
    </main>
  );
}
