import { z } from "zod";
import { dateParam, idNaming, idSchema, pagedResponse, paginationQuery, timestamp } from "~/lib/schemas.ts";
import { AUDIT_ACTIONS, auditActions } from "./audit-actions.ts";

const targetTypes = [...new Set(Object.values(AUDIT_ACTIONS))] as [string, ...string[]];

/** The audit log's filters (docs/api-contract.md §20): the list, its page and its CSV export read the same. */
export const auditFilters = {
  actorId: idNaming("of the user (or a link's submission) who acted.").optional(),
  targetType: z.enum(targetTypes).optional().meta({ description: "What the event is about." }),
  targetId: idNaming("of the thing the event is about.").optional(),
  action: z.enum(auditActions).optional(),
  from: dateParam.meta({ description: "At or after (ISO 8601 date or date-time; a date starts in the organization's time zone)." }),
  to: dateParam.meta({ description: "At or before; a date covers that whole day." }),
  organizationId: idSchema.optional().meta({ description: "SUPER_ADMIN only: one organization." }),
};

export const auditFiltersQuery = z.strictObject(auditFilters);
export type AuditFilters = z.output<typeof auditFiltersQuery>;

export const listAuditQuery = z.strictObject({ ...paginationQuery, ...auditFilters });
export type ListAuditQuery = z.output<typeof listAuditQuery>;

export const auditEventItem = z
  .object({
    id: idSchema,
    at: timestamp,
    actor: z.object({
      kind: z.enum(["USER", "TOKEN", "RESPONDENT", "SYSTEM"]),
      id: idSchema.nullable().meta({ description: "The user (for TOKEN, the token's owner); a link's submission for RESPONDENT; null for SYSTEM." }),
      name: z.string().nullable().meta({ description: "A staff member's name when they acted; never a respondent's." }),
      tokenId: idSchema.nullable(),
    }),
    action: z.enum(auditActions),
    target: z.object({ type: z.string(), id: idSchema.nullable() }),
    ip: z.string().nullable(),
    requestId: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable().meta({ description: "What changed: field names, counts, filters; never a person's data." }),
  })
  .meta({ id: "AuditEvent" });

export const auditEventList = pagedResponse("events", auditEventItem).meta({ id: "AuditEventList" });
