import { stringify } from "csv-stringify/sync";
import { type Actor, requireAdmin } from "~/lib/auth/actor.server.ts";
import { dateRange } from "~/lib/date-range.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { forbidden } from "~/lib/problem.server.ts";
import { skipTake } from "~/lib/schemas.ts";
import { dayIn } from "~/lib/zoned-time.ts";
import { guardFormula } from "../reports/report-export-file.server.ts";
import type { AuditAction } from "./audit-actions.ts";
import type { AuditFilters, ListAuditQuery } from "./audit-schemas.ts";
import { recordAudit } from "./audit.server.ts";

/**
 * Reading the audit log (docs/api-contract.md §20, ADR 87): an organization's administrators read
 * their organization's events, a SUPER_ADMIN every organization's (or one's, with organizationId),
 * newest first. Nothing here changes or removes an event.
 */

const eventSelect = {
  id: true,
  at: true,
  actorKind: true,
  actorId: true,
  actorName: true,
  tokenId: true,
  action: true,
  targetType: true,
  targetId: true,
  ip: true,
  requestId: true,
  details: true,
} satisfies Prisma.AuditEventSelect;

type EventRow = Prisma.AuditEventGetPayload<{ select: typeof eventSelect }>;

const newestFirst = [{ at: "desc" }, { id: "desc" }] satisfies Prisma.AuditEventOrderByWithRelationInput[];

function auditWhere(caller: Actor, filters: AuditFilters): Prisma.AuditEventWhereInput {
  const actor = requireAdmin(caller);
  if (filters.organizationId && actor.role !== "SUPER_ADMIN") throw forbidden("Only a SUPER_ADMIN may read another organization's audit log.");
  const at = dateRange(filters, actor.timeZone);
  return {
    ...(actor.role === "SUPER_ADMIN" ? (filters.organizationId ? { organizationId: filters.organizationId } : {}) : { organizationId: actor.organizationId }),
    ...(filters.actorId ? { actorId: filters.actorId } : {}),
    ...(filters.targetType ? { targetType: filters.targetType } : {}),
    ...(filters.targetId ? { targetId: filters.targetId } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(at ? { at } : {}),
  };
}

const present = (row: EventRow) => ({
  id: row.id,
  at: row.at,
  actor: { kind: row.actorKind, id: row.actorId, name: row.actorName, tokenId: row.tokenId },
  action: row.action as AuditAction,
  target: { type: row.targetType ?? "", id: row.targetId },
  ip: row.ip,
  requestId: row.requestId,
  details: (row.details ?? null) as Record<string, unknown> | null,
});

export type AuditEventView = ReturnType<typeof present>;

export async function listAuditEvents(caller: Actor, query: ListAuditQuery) {
  const where = auditWhere(caller, query);
  const [rows, total] = await Promise.all([
    db.auditEvent.findMany({ where, select: eventSelect, orderBy: newestFirst, ...skipTake(query) }),
    db.auditEvent.count({ where }),
  ]);
  return { events: rows.map(present), total, page: query.page, limit: query.limit };
}

export const AUDIT_CSV_COLUMNS = [
  "at",
  "actorKind",
  "actorId",
  "actorName",
  "tokenId",
  "action",
  "targetType",
  "targetId",
  "ip",
  "requestId",
  "details",
] as const;

/** Events read per statement: the file is streamed a batch at a time, however long the log. */
const BATCH = 1000;

/**
 * The filtered log as a CSV file, newest first, in the roster export's dialect (UTF-8 with a BOM,
 * CR LF, RFC 4180 quoting, formulas guarded: ADR 49), streamed a batch at a time. The export is
 * itself an event, recorded with its filters and row count before the first byte is sent.
 */
export async function auditEventsCsv(caller: Actor, filters: AuditFilters, now = new Date()) {
  const where = auditWhere(caller, filters);
  const rowCount = await db.auditEvent.count({ where });
  const { organizationId: _organization, ...named } = filters;
  await recordAudit(db, { by: caller, action: "export.created", targetId: caller.organizationId, details: { kind: "audit", filters: named, rowCount } });
  const options = {
    record_delimiter: "windows",
    quote_record_delimiter: true,
    cast: { string: guardFormula, date: (date: Date) => date.toISOString() },
  } as const;
  const encoder = new TextEncoder();
  let cursor: { at: Date; id: string } | null = null;
  let headerSent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!headerSent) {
        headerSent = true;
        controller.enqueue(encoder.encode(`\uFEFF${stringify([[...AUDIT_CSV_COLUMNS]], options)}`));
        return;
      }
      // Keyset pages: events written while the file streams come before the cursor, never twice.
      const after: Prisma.AuditEventWhereInput = cursor ? { OR: [{ at: { lt: cursor.at } }, { at: cursor.at, id: { lt: cursor.id } }] } : {};
      const rows = await db.auditEvent.findMany({ where: { AND: [where, after] }, select: eventSelect, orderBy: newestFirst, take: BATCH });
      if (rows.length === 0) return controller.close();
      const last = rows[rows.length - 1] as EventRow;
      cursor = { at: last.at, id: last.id };
      const records = rows.map((row) => [
        row.at,
        row.actorKind,
        row.actorId,
        row.actorName,
        row.tokenId,
        row.action,
        row.targetType,
        row.targetId,
        row.ip,
        row.requestId,
        row.details === null ? null : JSON.stringify(row.details),
      ]);
      controller.enqueue(encoder.encode(stringify(records, options)));
      if (rows.length < BATCH) controller.close();
    },
  });
  return { body, rowCount, filename: `audit-${dayIn(now, caller.timeZone)}.csv` };
}

/** The logins an administrator can filter the log by: the organization's staff, those since removed too (their events stay). */
export async function auditActorChoices(caller: Actor) {
  const actor = requireAdmin(caller);
  return db.user.findMany({
    where: { organizationId: actor.organizationId, role: { not: "STUDENT" } },
    select: { id: true, name: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
}
