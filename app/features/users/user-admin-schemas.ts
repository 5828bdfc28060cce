import { z } from "zod";
import { booleanParam, idSchema, pagedResponse, paginationQuery, searchParam, singleLineText, timestamp } from "~/lib/schemas.ts";
import { ROLES } from "./user-schemas.ts";

/** Roles an administrator can move a login between; students' logins belong to student records. */
export const STAFF_ROLES = ["SUPER_ADMIN", "ADMIN", "TEACHER"] as const;

export const listUsersQuery = z.strictObject({
  ...paginationQuery,
  search: searchParam.meta({ description: "Name or e-mail; case- and accent-insensitive." }),
  role: z.enum(ROLES).optional(),
  isActive: booleanParam.optional(),
  organizationId: idSchema.optional().meta({ description: "SUPER_ADMIN only: one organization." }),
});
export type ListUsersQuery = z.output<typeof listUsersQuery>;

export const updateUserBody = z
  .strictObject({
    name: singleLineText(200).optional(),
    role: z.enum(STAFF_ROLES).optional().meta({ description: "Within what the caller may grant." }),
    isActive: z.boolean().optional().meta({ description: "false ends every session and API token of the user; true does not revive them." }),
    resetTwoFactor: z
      .literal(true)
      .optional()
      .meta({ description: "Turns off the user's second factor (lost phone or mailbox) and ends their sessions and API tokens." }),
  })
  .meta({ id: "UserUpdate" });
export type UpdateUserInput = z.output<typeof updateUserBody>;

export const userListItem = z
  .object({
    id: idSchema,
    email: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    isActive: z.boolean(),
    twoFactorEnabled: z.boolean(),
    organization: z.object({ id: idSchema, name: z.string() }),
    lastLoginAt: timestamp.nullable(),
    createdAt: timestamp,
  })
  .meta({ id: "UserListItem" });

export const userListResponse = pagedResponse("users", userListItem);
export const revokeSessionsResponse = z.object({ revoked: z.number().int() }).meta({ id: "SessionsRevoked" });
