import { randomBytes } from "node:crypto";
import { issueVerification } from "~/lib/auth/verification.server.ts";
import { env } from "~/lib/env.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { sendMail } from "~/lib/mail/mailer.server.ts";
import { invitationMail } from "~/lib/mail/messages.server.ts";
import type { OrganizationKind } from "../organization/organization-kinds.ts";

/**
 * Links to the page where a user chooses a password: the reset links of passwords.server.ts, and
 * invitations for users created without one (by an administrator, or by `npm run setup`). This
 * module stays free of the password policy so that scripts can import it.
 */
export const INVITATION_LINK_TTL_MS = 72 * 60 * 60 * 1000;

export type LinkRecipient = { id: string; name: string; email: string; locale: string };

/** The organization a link's e-mail comes from: its name, and its kind for the words (ADR 81). */
export type Sender = { name: string; kind: OrganizationKind };

export const newLinkToken = () => randomBytes(32).toString("base64url");

/** Links are built from APP_URL and a known locale only, never from the request. */
export const setPasswordUrl = (locale: string, token: string) => `${env().APP_URL}/${resolveLocale(locale)}/reset-password?token=${encodeURIComponent(token)}`;

/**
 * E-mails a new user without a password the link to choose one (the reset flow, valid 72 hours).
 * A failure is logged, not thrown: the account exists, and "Forgot your password?" sends a new link.
 */
export async function sendInvitation(user: LinkRecipient, organization: Sender): Promise<void> {
  try {
    await mailInvitation(user, organization, await issueInvitationLink(user));
  } catch (error) {
    console.error("[invitation] sending the invitation failed", error);
  }
}

/** A new one-time link (72 hours) for a user to choose their first password. */
export async function issueInvitationLink(user: LinkRecipient): Promise<string> {
  const token = newLinkToken();
  await issueVerification(user.id, "PASSWORD_RESET", token, { ttlMs: INVITATION_LINK_TTL_MS });
  return setPasswordUrl(user.locale, token);
}

/** E-mails the invitation with `link`, in the user's language; throws when it cannot be sent. */
export async function mailInvitation(user: LinkRecipient, organization: Sender, link: string): Promise<void> {
  await sendMail({ to: user.email, ...invitationMail(user.locale, organization.kind, user.name, organization.name, link) });
}
