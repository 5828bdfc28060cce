import { Form } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/profile.sessions";
import { Badge } from "~/components/badge.tsx";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { Section } from "~/components/page-header.tsx";
import { profilePageMeta } from "~/components/profile/profile-page.ts";
import { endOtherSessions, listSessions } from "~/features/users/sessions.server.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { pageActor, parsePagePost, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

/** The browsers and devices signed in to the account (/profile/sessions), and "sign out everywhere else". */
export const meta: Route.MetaFunction = (args) => profilePageMeta(args, (t) => t.profile.sessionsTitle);

/** The one form of the page is its button: nothing is posted but the CSRF token. */
const endOthersForm = z.strictObject({});

export async function loader({ context }: Route.LoaderArgs) {
  return { sessions: await listSessions(pageActor(context)) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = pageActor(context);
  const locale = resolveLocale(params.locale);
  const form = await parsePagePost(request, endOthersForm, pageTranslations(context, locale), { skip: ["intent"] });
  if (!form.ok) return form.reply;
  await endOtherSessions(actor);
  throw await redirectWithFlash(paths.profileSessions(locale), { kind: "success", key: "sessionsEnded" });
}

export default function ProfileSessions({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const { sessions } = loaderData;
  const others = sessions.filter((session) => !session.current).length;
  return (
    <Section
      id="sessions"
      title={t.profile.sessionsTitle}
      description={t.profile.sessionsDescription}
      className="max-w-3xl"
      actions={
        others > 0 ? (
          <Form method="post">
            <CsrfInput />
            <Button type="submit" variant="secondary" size="sm" pendingText={t.common.working}>
              {t.profile.endOthers}
            </Button>
          </Form>
        ) : null
      }
    >
      <ul className="divide-y divide-slate-200">
        {sessions.map((session) => (
          <li key={session.id} className="px-4 py-3 sm:px-5">
            <div className="flex flex-wrap items-center gap-2">
              <p className="min-w-0 font-medium wrap-anywhere text-slate-900">{session.userAgent ?? t.profile.unknownDevice}</p>
              {session.current ? <Badge tone="info">{t.profile.thisDevice}</Badge> : null}
            </div>
            <p className="mt-0.5 text-sm text-slate-600">
              {t.profile.signedInAt(format.dateTime(session.createdAt))}
              <span aria-hidden="true"> · </span>
              {t.profile.lastSeen(format.dateTime(session.lastSeenAt))}
              <span aria-hidden="true"> · </span>
              {t.profile.ipAddress(session.ipAddress ?? "—")}
            </p>
          </li>
        ))}
      </ul>
      {others === 0 ? <p className="border-t border-slate-200 px-4 py-3 text-sm text-slate-600 sm:px-5">{t.profile.onlyThisDevice}</p> : null}
    </Section>
  );
}
