import { NavLink, Outlet, redirect } from "react-router";
import type { Route } from "./+types/profile";
import { cx } from "~/components/cx.ts";
import { PageHeader } from "~/components/page-header.tsx";
import { documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useLocale, useT } from "~/i18n/hooks.ts";
import { resolveLocale, type Locale } from "~/lib/i18n.ts";
import { postedIntent, readPagePost } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/**
 * The signed-in user's own account, one page per concern under this layout (ADR 61): the details
 * and avatar at /profile, then the password, the second factor, the sessions and the API tokens.
 * Each page has its own action, which reads its form with the API's schema and posts back to itself.
 */
export const meta: Route.MetaFunction = ({ params, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, t.profile.title) }];
};

/**
 * Before the profile had a page per concern, all its forms posted to /profile with an `intent`,
 * and a page opened then still does; its own forms post to their pages (the details form to
 * /profile?index). So a post to /profile itself is sent on, method and body kept (307), to the
 * page that answers it now, which checks it as it checks its own (ADR 61).
 */
const MOVED = {
  password: paths.profilePassword,
  setup: paths.profileTwoFactor,
  enable: paths.profileTwoFactor,
  disable: paths.profileTwoFactor,
  sessions: paths.profileSessions,
} as const satisfies Record<string, (locale: Locale) => string>;

export async function action({ request, params }: Route.ActionArgs) {
  const locale = resolveLocale(params.locale);
  // Checked here too, so that a stale or forged post is the 403 page wherever it is sent.
  const formData = await readPagePost(request);
  const moved = postedIntent(formData, ["password", "setup", "enable", "disable", "sessions"]);
  throw redirect(moved ? MOVED[moved](locale) : `${paths.profile(locale)}?index`, 307);
}

export default function ProfileLayout() {
  const t = useT();
  const locale = useLocale();
  const sections = [
    { to: paths.profile(locale), label: t.profile.detailsTitle, end: true },
    { to: paths.profilePassword(locale), label: t.profile.passwordTitle, end: false },
    { to: paths.profileTwoFactor(locale), label: t.profile.twoFactorTitle, end: false },
    { to: paths.profileSessions(locale), label: t.profile.sessionsTitle, end: false },
    { to: paths.apiTokens(locale), label: t.apiTokens.link, end: false },
  ];
  return (
    <div className="space-y-6">
      <PageHeader title={t.profile.title} description={t.profile.description} />
      <nav aria-label={t.profile.sections} className="border-b border-slate-200">
        <ul className="-mb-px flex flex-wrap gap-x-1">
          {sections.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                end={section.end}
                className={({ isActive }) =>
                  cx(
                    "inline-flex min-h-11 items-center border-b-2 px-3 text-sm font-medium",
                    isActive ? "border-indigo-700 text-indigo-800" : "border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900",
                  )
                }
              >
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </div>
  );
}
