import type { OrganizationKind } from "~/features/organization/organization-kinds.ts";
import { forbidden, unauthenticated } from "../problem.server.ts";

export type Role = "SUPER_ADMIN" | "ADMIN" | "TEACHER" | "STUDENT";

/**
 * The caller as every service sees it. Services take an Actor explicitly and derive their
 * scope from it, so no query can forget which organization it runs in.
 */
export type Actor = {
  userId: string;
  /** The session's id, or `token:<id>` for a personal API token. */
  sessionId: string;
  /** How the caller proved who they are: a session cookie (CSRF-checked writes) or a bearer token. */
  via: "session" | "token";
  role: Role;
  organizationId: string;
  name: string;
  email: string;
  image: string | null;
  locale: string;
  /** The organization's IANA time zone: date-only inputs are whole days there, and dates are shown in it. */
  timeZone: string;
  /** SCHOOL or CLINIC: which words the caller's pages, e-mails and PDFs say (ADR 81). */
  organizationKind: OrganizationKind;
  sessionExpiresAt: Date;
  /**
   * The live groups a teacher is staff of (docs/api-contract.md §19, ADR 86), each with its whole
   * staff: what widens the teacher's submission scope. Read with the caller on every request, so a
   * change of staff takes effect on the next one; empty for everyone else.
   */
  staffOf: StaffedGroup[];
  /** Where the request came from, for the audit events it writes (ADR 87): unknown outside a request. */
  origin: RequestOrigin;
};

/** The client's address and the request's id (`X-Request-Id`), as an audit event records them. */
export type RequestOrigin = { ip: string | null; requestId: string | null };

export type GroupStaffRole = "OWNER" | "EDITOR" | "VIEWER";

/** One group the caller shares: their role in it and the ids of all its staff (the caller included). */
export type StaffedGroup = { groupId: string; role: GroupStaffRole; staffIds: string[] };

export const isAdmin = (actor: Pick<Actor, "role">) => actor.role === "ADMIN" || actor.role === "SUPER_ADMIN";
export const isStaff = (actor: Pick<Actor, "role">) => actor.role !== "STUDENT";

export function requireActor(actor: Actor | null): Actor {
  if (!actor) throw unauthenticated();
  return actor;
}

/** Teachers and administrators: everything but the students' own logins. */
export function requireStaff(actor: Actor | null): Actor {
  const signedIn = requireActor(actor);
  if (!isStaff(signedIn)) throw forbidden();
  return signedIn;
}

export function requireAdmin(actor: Actor | null): Actor {
  const signedIn = requireActor(actor);
  if (!isAdmin(signedIn)) throw forbidden("Only administrators may do this.");
  return signedIn;
}

/**
 * The organization filter for records that belong to one organization. A SUPER_ADMIN sees every
 * organization; everyone else only their own. Records outside it answer 404, never 403.
 */
export function organizationScope(actor: Actor): { organizationId?: string } {
  return actor.role === "SUPER_ADMIN" ? {} : { organizationId: actor.organizationId };
}
