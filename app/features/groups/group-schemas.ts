import { z } from "zod";
import { STUDENT_STATUSES } from "../students/student-statuses.ts";
import { CANDIDATE_STATUSES } from "../candidates/candidate-statuses.ts";
import { GROUP_STAFF_ROLES } from "./group-staff-roles.ts";
import {
  changesResponse,
  idSchema,
  notDeleted,
  optionalText,
  paginationQuery,
  searchParam,
  singleLineText,
  timestamp,
  updatedSinceParam,
} from "~/lib/schemas.ts";

/** Groups (classes, caseloads) of students and candidates: docs/api-contract.md §9. */
export const createGroupBody = z
  .strictObject({
    name: singleLineText(200, "nameRequired").meta({ examples: ["5B Reading"] }),
    description: optionalText(2000),
  })
  .meta({ id: "GroupCreate" });
export type CreateGroupInput = z.output<typeof createGroupBody>;

export const updateGroupBody = z.strictObject({ name: createGroupBody.shape.name.optional(), description: optionalText(2000) }).meta({ id: "GroupUpdate" });
export type UpdateGroupInput = z.output<typeof updateGroupBody>;

/** At most this many ids in one members call: a large school year, not a whole school. */
export const MEMBERS_PER_CALL = 1000;

export const groupMembersBody = z
  .strictObject({
    studentIds: z.array(idSchema).max(MEMBERS_PER_CALL, "tooManyMembers").default([]),
    candidateIds: z.array(idSchema).max(MEMBERS_PER_CALL, "tooManyMembers").default([]),
  })
  .meta({ id: "GroupMembersChange" });
export type GroupMembersInput = z.output<typeof groupMembersBody>;

export const listGroupsQuery = z.strictObject({ ...paginationQuery, search: searchParam, updatedSince: updatedSinceParam });
export type ListGroupsQuery = z.output<typeof listGroupsQuery>;

const groupFields = {
  id: idSchema,
  name: z.string(),
  description: z.string().nullable(),
  createdAt: timestamp,
  updatedAt: timestamp.meta({ description: "When the group last changed: its name, its description, or its members." }),
  deletedAt: notDeleted,
  createdBy: z.object({ id: idSchema, name: z.string() }).nullable(),
};

export const groupListItem = z.object({ ...groupFields, _count: z.object({ members: z.number().int() }) }).meta({ id: "GroupListItem" });
export const groupListResponse = changesResponse("groups", groupListItem);

export const groupMember = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("student"), id: idSchema, name: z.string(), status: z.enum(STUDENT_STATUSES) }),
    z.object({ kind: z.literal("candidate"), id: idSchema, name: z.string(), status: z.enum(CANDIDATE_STATUSES) }),
  ])
  .meta({ id: "GroupMember" });

export const groupDetail = z.object({ ...groupFields, members: z.array(groupMember) }).meta({ id: "Group" });

/** More colleagues than share any class or caseload. */
export const STAFF_PER_GROUP = 100;

export const groupStaffBody = z
  .strictObject({
    staff: z
      .array(z.strictObject({ userId: idSchema, role: z.enum(GROUP_STAFF_ROLES) }))
      .max(STAFF_PER_GROUP, "tooManyStaff")
      .superRefine((entries, ctx) => {
        const seen = new Set<string>();
        entries.forEach((entry, index) => {
          if (seen.has(entry.userId)) ctx.addIssue({ code: "custom", path: [index, "userId"], message: "staffTwice" });
          seen.add(entry.userId);
        });
      })
      .meta({ description: "The whole staff: who is not named leaves it. At least one OWNER." }),
  })
  .meta({ id: "GroupStaffChange" });
export type GroupStaffInput = z.output<typeof groupStaffBody>;

export const groupStaffResponse = z
  .object({ staff: z.array(z.object({ userId: idSchema, name: z.string(), role: z.enum(GROUP_STAFF_ROLES) })) })
  .meta({ id: "GroupStaff" });
