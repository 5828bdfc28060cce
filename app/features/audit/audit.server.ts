import type { Actor, RequestOrigin } from "~/lib/auth/actor.server.ts";
import type { Database, Prisma } from "~/lib/db.server.ts";
import { AUDIT_ACTIONS, type AuditAction } from "./audit-actions.ts";

/**
 * Writing the audit log (docs/api-contract.md §20, ADR 87). A change records its event with the
 * transaction client that makes the change, so both are committed or neither; a read or an export
 * records it before the response is sent. Events name people by id only: what an event says must
 * survive the person's erasure without keeping anything of them.
 */

/** Who did it, when it is not a signed-in caller: a public link's respondent, or the service itself. */
export type AuditActor = { kind: "USER"; id: string | null; name: string | null } | { kind: "RESPONDENT"; id: string } | { kind: "SYSTEM"; name: string };

/**
 * A user as an audit event names them. A student's own login is a person the organization keeps
 * data about: named by id only, so that erasing them leaves nothing of theirs here (§21).
 */
export const userActor = (user: { id: string; name: string; role: string }): AuditActor & { kind: "USER" } => ({
  kind: "USER",
  id: user.id,
  name: user.role === "STUDENT" ? null : user.name,
});

export type AuditEntry = {
  /** The caller (a session's user, or an API token as TOKEN), or another actor. */
  by: Actor | AuditActor;
  action: AuditAction;
  /** The thing the action is about; its type is the action's (audit-actions.ts). */
  targetId: string | null;
  /** What changed: field names, counts, filters. Never a person's name, e-mail or answers. */
  details?: Prisma.InputJsonObject;
  /** Required for an AuditActor; a caller's own organization otherwise (a super admin's write names the target's). */
  organizationId?: string | null;
  /** Where a request without a caller came from (a failed sign-in); a caller carries their own. */
  origin?: RequestOrigin;
};

type Client = Prisma.TransactionClient | Database;

const isCaller = (by: Actor | AuditActor): by is Actor => "userId" in by;

/** The row for an event, for a caller to pass to `createMany` or a transaction's batch. */
export function auditEventData(entry: AuditEntry): Prisma.AuditEventUncheckedCreateInput {
  const origin = entry.origin ?? (isCaller(entry.by) ? entry.by.origin : { ip: null, requestId: null });
  const base = {
    action: entry.action,
    targetType: AUDIT_ACTIONS[entry.action],
    targetId: entry.targetId,
    ip: origin.ip,
    requestId: origin.requestId,
    details: entry.details,
  };
  if (isCaller(entry.by)) {
    const token = entry.by.via === "token" ? entry.by.sessionId.replace(/^token:/, "") : null;
    return {
      ...base,
      organizationId: entry.organizationId === undefined ? entry.by.organizationId : entry.organizationId,
      actorKind: token ? "TOKEN" : "USER",
      actorId: entry.by.userId,
      actorName: userActor({ id: entry.by.userId, name: entry.by.name, role: entry.by.role }).name,
      tokenId: token,
    };
  }
  if (entry.organizationId === undefined) throw new Error(`recordAudit(${entry.action}): an event without a caller names its organization`);
  const by = entry.by;
  return {
    ...base,
    organizationId: entry.organizationId,
    actorKind: by.kind,
    actorId: by.kind === "SYSTEM" ? null : by.id,
    // A respondent is named by their link only: their name is theirs to have erased.
    actorName: by.kind === "RESPONDENT" ? null : by.name,
  };
}

/** Records one event with `client`: the transaction of the change it records, or `db` for a read. */
export async function recordAudit(client: Client, entry: AuditEntry): Promise<void> {
  await client.auditEvent.create({ data: auditEventData(entry), select: { id: true } });
}

/**
 * Records an `*.updated` event of a partial body's change: the fields it set, never their values.
 * `target.organizationId`: the thing's own organization, when a super admin may change another's.
 */
export function recordUpdate(client: Client, by: Actor, action: AuditAction, target: { id: string; organizationId?: string }, input: object): Promise<void> {
  return recordAudit(client, {
    by,
    action,
    targetId: target.id,
    ...(target.organizationId === undefined ? {} : { organizationId: target.organizationId }),
    details: { fields: changedFields(input) },
  });
}

/** The fields a partial body sets (those not `undefined`), sorted: what an `*.updated` event names. */
export function changedFields(input: object): string[] {
  return Object.entries(input)
    .flatMap(([field, value]) => (value === undefined ? [] : [field]))
    .sort();
}

/**
 * An export's filters as its `export.created` event keeps them: each one given, by its value (ids,
 * dates, statuses), but a free-text search only as `true`: it may be the name of the person looked
 * for, which no event holds (§20).
 */
export function exportFilters(filters: Record<string, string | boolean | undefined>, freeText: readonly string[] = ["search"]): Prisma.InputJsonObject {
  return Object.fromEntries(
    Object.entries(filters).flatMap(([name, value]) => (value === undefined || value === "" ? [] : [[name, freeText.includes(name) ? true : value]])),
  );
}
