import type { OrganizationKind } from "~/features/organization/organization-kinds.ts";
import { serverTranslations } from "~/i18n/dictionaries.server.ts";
import { resolveLocale } from "../i18n.ts";
import type { OutgoingMail } from "./mailer.server.ts";

/**
 * Every e-mail the service sends, in the recipient's language and with the words of the
 * organization it comes from (a school's or a clinic's, ADR 81), from the `mail` group of the
 * server dictionaries (app/i18n/en.server.ts). Plain text first (it is what clients that block
 * HTML show), with a simple HTML twin.
 */
type Message = Omit<OutgoingMail, "to">;

const escapeHtml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

function compose(subject: string, paragraphs: string[], action?: { label: string; url: string }): Message {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : [])].join("\n\n");
  const html = [
    `<div style="font-family:system-ui,sans-serif;font-size:16px;line-height:1.5;color:#0f172a">`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(action
      ? [
          `<p><a href="${escapeHtml(action.url)}" style="background:#4338ca;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>`,
          `<p style="font-size:13px;color:#475569">${escapeHtml(action.url)}</p>`,
        ]
      : []),
    `</div>`,
  ].join("");
  return { subject, text, html };
}

/** The `mail` strings of the recipient's language (a stored locale, or English when it is not one of ours) and organization. */
const mailWords = (locale: string, kind: OrganizationKind) => serverTranslations(resolveLocale(locale), kind).mail;

export function twoFactorCodeMail(locale: string, kind: OrganizationKind, name: string, code: string): Message {
  const t = mailWords(locale, kind);
  return compose(t.signInCode.subject(code), t.signInCode.body(name, code));
}

export function passwordResetMail(locale: string, kind: OrganizationKind, name: string, url: string): Message {
  const t = mailWords(locale, kind);
  return compose(t.passwordReset.subject, t.passwordReset.body(name), { label: t.passwordReset.action, url });
}

/** The owner's way past a sign-in paused by guesses from many places (ADR 47). */
export function signInUnlockMail(locale: string, kind: OrganizationKind, name: string, url: string): Message {
  const t = mailWords(locale, kind);
  return compose(t.signInUnlock.subject, t.signInUnlock.body(name), { label: t.signInUnlock.action, url });
}

export function invitationMail(locale: string, kind: OrganizationKind, name: string, organization: string, url: string): Message {
  const t = mailWords(locale, kind);
  return compose(t.invitation.subject(organization), t.invitation.body(name, organization), { label: t.invitation.action, url });
}

/** A link's e-mail to its respondent, the link's own or a reminder: the two differ only in their words. */
function linkMail(which: "testLink" | "reminder") {
  return (locale: string, kind: OrganizationKind, name: string, organization: string, form: string, expiry: string | null, url: string): Message => {
    const t = mailWords(locale, kind)[which];
    return compose(t.subject(form), t.body(name, organization, form, expiry), { label: t.action, url });
  };
}

/** A test link for its respondent; `expiry` already written in the organization's time zone and the language. */
export const testLinkMail = linkMail("testLink");

/** A reminder of a link still waiting for answers, like the link's own e-mail. */
export const reminderMail = linkMail("reminder");

/**
 * A flagged result for someone who should see it (docs/api-contract.md §16): the form, the
 * respondent and the completion time (`completedAt` already written in the organization's time
 * zone and the language), and the report's address; never the answers, nor the flags' texts
 * (they name the answer chosen).
 */
export function flaggedResultMail(
  locale: string,
  kind: OrganizationKind,
  name: string,
  respondent: string,
  form: string,
  completedAt: string,
  url: string,
): Message {
  const t = mailWords(locale, kind);
  return compose(t.flaggedResult.subject(form), t.flaggedResult.body(name, respondent, form, completedAt), { label: t.flaggedResult.action, url });
}
