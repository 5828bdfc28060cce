import type { OrganizationKind } from "~/features/organization/organization-kinds.ts";
import { rawBoolean, rawDate, rawJson } from "../raw-values.ts";
import { byDialect, type Dialect, keyPlaceholder, type SqlClient } from "../sql-client.server.ts";
import type { GroupStaffRole, StaffedGroup } from "./actor.server.ts";
import type { ActorUser } from "./actor-user.server.ts";

/**
 * The caller read through the driver (ADR 95): the statements, and their row turned into the user
 * and groups an Actor is made of. Nothing here opens or imports the Prisma client, so the bench's
 * baseline (scripts/bench/baseline.ts) runs the app's own statements.
 */

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** [groupId, the caller's role, one staff member's id] in any order, as groups with their staff, each in id order. */
function groupsOfStaff(triples: [string, GroupStaffRole, string][]): StaffedGroup[] {
  triples.sort(([groupA, , staffA], [groupB, , staffB]) => (groupA === groupB ? compare(staffA, staffB) : compare(groupA, groupB)));
  const groups = new Map<string, StaffedGroup>();
  for (const [groupId, role, staffId] of triples) {
    const group = groups.get(groupId) ?? { groupId, role, staffIds: [] };
    group.staffIds.push(staffId);
    groups.set(groupId, group);
  }
  return [...groups.values()];
}

/** The live groups a user is staff of, each with all its staff, for `mine."userId" = ` what follows. */
const STAFF_OF_USER = `FROM "GroupStaff" AS mine
                       JOIN "Group" AS g ON g."id" = mine."groupId" AND g."deletedAt" IS NULL
                       JOIN "GroupStaff" AS other ON other."groupId" = mine."groupId"
                      WHERE mine."userId" =`;

const STAFFED_GROUPS = byDialect((dialect) => `SELECT mine."groupId", mine."role", other."userId" AS "staffId" ${STAFF_OF_USER} ${keyPlaceholder(dialect)}`);

/**
 * The live groups a teacher is staff of, each with its whole staff (ADR 86), as one statement of
 * its own: a schedule's occurrence acting for its teacher, and a caller on SQLite (readCaller).
 */
export async function readStaffedGroups(reads: Pick<SqlClient, "dialect" | "all">, userId: string): Promise<StaffedGroup[]> {
  const rows = await reads.all<{ groupId: string; role: GroupStaffRole; staffId: string }>(STAFFED_GROUPS[reads.dialect], [userId]);
  return groupsOfStaff(rows.map((row) => [row.groupId, row.role, row.staffId]));
}

/**
 * The columns of a statement whose FROM names the user as `u` followed by `ACTOR_JOINS`: the user,
 * their avatar's date and the organization's zone and kind. On PostgreSQL, a teacher's groups
 * (what staffedGroups reads) are folded in as one JSON column, `staffOf`, one [groupId, role,
 * staffId] per row, `NULL` for anyone else: a round trip fewer for every teacher's request. No
 * `ORDER BY` inside the aggregate; the triples are put in order here.
 */
function actorColumns(dialect: Dialect): string {
  const user = `u."id", u."role", u."organizationId", u."name", u."email", u."locale", u."isActive", u."deletedAt",
          a."updatedAt" AS "avatarUpdatedAt", o."timeZone", o."kind"`;
  if (dialect === "sqlite") return user;
  return `${user},
          (SELECT json_agg(json_build_array(mine."groupId", mine."role", other."userId")) ${STAFF_OF_USER} u."id" AND u."role" = 'TEACHER') AS "staffOf"`;
}

const ACTOR_JOINS = `JOIN "Organization" AS o ON o."id" = u."organizationId" LEFT JOIN "Avatar" AS a ON a."userId" = u."id"`;

/** The columns of actorColumns as the driver gives them (SQLite: 0/1 and dates as text). */
export type ActorRow = {
  id: string;
  role: ActorUser["role"];
  organizationId: string;
  name: string;
  email: string;
  locale: string;
  isActive: unknown;
  deletedAt: unknown;
  avatarUpdatedAt: unknown;
  timeZone: string;
  kind: OrganizationKind;
  /** PostgreSQL only: a teacher's [groupId, role, staffId] triples as JSON, null for anyone else. */
  staffOf?: unknown;
};

/** The user of one row read with actorColumns. */
export function actorUserOfRow(row: ActorRow): ActorUser {
  const { id, role, organizationId, name, email, locale } = row;
  const avatarUpdatedAt = rawDate(row.avatarUpdatedAt);
  return {
    id,
    role,
    organizationId,
    name,
    email,
    locale,
    isActive: rawBoolean(row.isActive),
    deletedAt: rawDate(row.deletedAt),
    avatar: avatarUpdatedAt ? { updatedAt: avatarUpdatedAt } : null,
    organization: { timeZone: row.timeZone, kind: row.kind },
  };
}

/** The groups of PostgreSQL's folded `staffOf` column (parsed or as text; null when there are none). */
export const groupsOfStaffColumn = (value: unknown): StaffedGroup[] => groupsOfStaff((rawJson(value) ?? []) as [string, GroupStaffRole, string][]);

/**
 * The caller of `statement` (CALLER_OF_SESSION or CALLER_OF_TOKEN, `name` its name) for `key`: its
 * row, its user and their staffed groups; undefined when there is no such row. One statement on
 * PostgreSQL; on SQLite a teacher's groups are a second one.
 */
export async function readCaller<Row extends ActorRow>(
  reads: Pick<SqlClient, "dialect" | "all">,
  statement: Record<Dialect, string>,
  name: string,
  key: string,
): Promise<{ row: Row; user: ActorUser; staffOf: StaffedGroup[] } | undefined> {
  const [row] = await reads.all<Row>(statement[reads.dialect], [key], { name });
  if (!row) return undefined;
  const staffOf = reads.dialect === "postgresql" ? groupsOfStaffColumn(row.staffOf) : row.role === "TEACHER" ? await readStaffedGroups(reads, row.id) : [];
  return { row, user: actorUserOfRow(row), staffOf };
}

/** A session with its caller, by the session's id (the token's hash). */
export const CALLER_OF_SESSION = byDialect(
  (dialect) => `SELECT se."expiresAt", se."lastSeenAt", ${actorColumns(dialect)}
                  FROM "Session" AS se
                  JOIN "User" AS u ON u."id" = se."userId"
                  ${ACTOR_JOINS}
                 WHERE se."id" = ${keyPlaceholder(dialect)}`,
);

/** A personal API token with its caller, by the token's hash. */
export const CALLER_OF_TOKEN = byDialect(
  (dialect) => `SELECT t."id" AS "tokenId", t."expiresAt", t."lastUsedAt", t."readOnly", ${actorColumns(dialect)}
                  FROM "ApiToken" AS t
                  JOIN "User" AS u ON u."id" = t."userId"
                  ${ACTOR_JOINS}
                 WHERE t."tokenHash" = ${keyPlaceholder(dialect)}`,
);
