import { describe, expect, it } from "vitest";
import { type ActorRow, actorUserOfRow, groupsOfStaffColumn } from "~/lib/auth/actor-row.server.ts";

/**
 * The caller's row as each driver gives it (ADR 95): better-sqlite3 with 0/1 and dates as text,
 * pg with booleans and dates, and on PostgreSQL a teacher's groups folded into one JSON column.
 * Both must make the same user, and the column the groups staffedGroups makes (the statements
 * themselves run on both databases in the HTTP tests: tests/api/group-staff.test.ts,
 * tests/operations/sessions-across-instances.test.ts).
 */
const common = {
  id: "u1",
  role: "TEACHER",
  organizationId: "o1",
  name: "Ana",
  email: "ana@school.test",
  locale: "pt-BR",
  timeZone: "America/Sao_Paulo",
  kind: "SCHOOL",
} as const;
const { timeZone, kind, ...userColumns } = common;

describe("the caller's row", () => {
  it("given the same row from SQLite and from PostgreSQL, should make the same user", () => {
    const fromSqlite: ActorRow = { ...common, isActive: 1, deletedAt: null, avatarUpdatedAt: "2026-11-30T08:00:00.000+00:00" };
    const fromPostgres: ActorRow = { ...common, isActive: true, deletedAt: null, avatarUpdatedAt: new Date("2026-11-30T08:00:00Z") };
    const expected = {
      ...userColumns,
      isActive: true,
      deletedAt: null,
      avatar: { updatedAt: new Date("2026-11-30T08:00:00Z") },
      organization: { timeZone, kind },
    };
    expect(actorUserOfRow(fromSqlite)).toEqual(expected);
    expect(actorUserOfRow(fromPostgres)).toEqual(expected);
  });

  it("given a deactivated user without an avatar, should say so", () => {
    for (const row of [
      { isActive: 0, deletedAt: "2026-11-01T00:00:00.000+00:00" },
      { isActive: false, deletedAt: new Date("2026-11-01T00:00:00Z") },
    ]) {
      expect(actorUserOfRow({ ...common, ...row, avatarUpdatedAt: null })).toMatchObject({
        isActive: false,
        deletedAt: new Date("2026-11-01T00:00:00Z"),
        avatar: null,
      });
    }
  });

  it("given a teacher's folded groups in any order, should give each group once with its staff, both in id order; none for null", () => {
    const triples = [
      ["g2", "VIEWER", "u1"],
      ["g1", "OWNER", "u9"],
      ["g2", "VIEWER", "u3"],
      ["g1", "OWNER", "u1"],
    ];
    const groups = [
      { groupId: "g1", role: "OWNER", staffIds: ["u1", "u9"] },
      { groupId: "g2", role: "VIEWER", staffIds: ["u1", "u3"] },
    ];
    expect(groupsOfStaffColumn(triples)).toEqual(groups);
    expect(groupsOfStaffColumn(JSON.stringify(triples))).toEqual(groups);
    expect(groupsOfStaffColumn(null)).toEqual([]);
  });
});
