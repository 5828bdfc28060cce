import { useEffect } from "react";
import { Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, type ShouldRevalidateFunction } from "react-router";
import type { Route } from "./+types/root";
import { developmentDetails, ErrorPage, errorStatus } from "./components/error-page.tsx";
import { LogoMark } from "./components/icons.tsx";
import { LanguageSwitcher } from "./components/language-switcher.tsx";
import { SkipLink } from "./components/app-shell.tsx";
import { loadDictionary } from "./i18n/dictionaries.ts";
import { useLocale, useT } from "./i18n/hooks.ts";
import { localeFromPath } from "./lib/i18n.ts";
import { useNonce } from "./lib/nonce.ts";
import { paths } from "./lib/paths.ts";
import { actorMiddleware, askForCredentials, crossSiteRequestGuard, failureStatus, noStoreWhenSignedIn, securityHeaders } from "./lib/middleware.server.ts";
import "./styles/app.css";

// The cross-site guard runs after the caller is known: it protects sessions, so a request without
// a valid one is simply unauthenticated (401).
export const middleware: Route.MiddlewareFunction[] = [
  securityHeaders,
  askForCredentials,
  failureStatus,
  actorMiddleware,
  noStoreWhenSignedIn,
  crossSiteRequestGuard,
];

/** A navigation to a page in another language loads that language's strings before it renders. */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  async ({ request }, next) => {
    await loadDictionary(localeFromPath(new URL(request.url).pathname));
    await next();
  },
];

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

export { rootLoader as loader } from "./lib/root-loader.server.ts";

/** Load again on every page change, so a flash message shows once and is gone on the next page. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  defaultShouldRevalidate || currentUrl.pathname !== nextUrl.pathname;

export function Layout({ children }: { children: React.ReactNode }) {
  const locale = useLocale();
  const nonce = useNonce();
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* `npm run dev`: Vite adds the stylesheets as <style> elements carrying this nonce (ADR 58). */}
        {import.meta.env.DEV ? <meta property="csp-nonce" nonce={nonce} /> : null}
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
  // Marks the page as hydrated: browser tests wait for it before typing, as React keeps only what
  // is typed once it has taken the inputs over.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Outlet />;
}

/**
 * The friendly 404, 403 and 500 for every page outside the signed-in shell (which has its own,
 * inside the shell), in the language of the URL.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const t = useT();
  const locale = useLocale();
  const status = errorStatus(error);
  const details = import.meta.env.DEV ? developmentDetails(error) : undefined;
  return (
    <div className="flex min-h-screen flex-col">
      <title>{`${status === 404 ? t.errors.notFoundTitle : status === 403 ? t.errors.forbiddenTitle : t.errors.errorTitle} · ${t.app.name}`}</title>
      <SkipLink />
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex min-h-16 max-w-7xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2 sm:px-6 lg:px-8">
          <Link to={paths.home(locale)} reloadDocument className="flex items-center gap-2.5 rounded-md font-semibold text-slate-900">
            <LogoMark className="size-8" />
            {t.app.name}
          </Link>
          <LanguageSwitcher />
        </div>
      </header>
      <main id="main-content" tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 px-4 outline-none sm:px-6 lg:px-8">
        <ErrorPage status={status} details={details} />
      </main>
    </div>
  );
}
