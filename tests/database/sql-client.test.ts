import { afterAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { CALLER_OF_SESSION, CALLER_OF_TOKEN } from "../../app/lib/auth/actor-row.server.ts";
import { inValues, keyPlaceholder, openSqlClient } from "../../app/lib/sql-client.server.ts";
import { testDatabase } from "../support/database.ts";

/**
 * The driver-level client of the exports' workers (ADR 34): a list of values goes as one
 * parameter, so a statement has one shape whatever the number of values. Written with a `?` per
 * value, a 100,000-row export prepared a statement per count of respondents in a batch and kept
 * every one (≈30 MiB that the process kept).
 */
describe("a list of values in one parameter", () => {
  const client = openSqlClient(inject("databaseUrl"), { poolSize: 1 });
  afterAll(() => client.close());

  const idsIn = async (values: string[]) => {
    const list = inValues(client.dialect, `o."id"`, values);
    const rows = await client.all<{ id: string }>(`SELECT o."id" FROM "Organization" AS o WHERE ${list.sql} ORDER BY o."id"`, list.params);
    return rows.map((row) => row.id);
  };

  it("given none, one and many values (with quotes, commas and a value that matches nothing), should select exactly those rows", async () => {
    const organizations = (await testDatabase().organization.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((row) => row.id);
    expect(organizations.length).toBeGreaterThan(1);
    expect(await idsIn([])).toEqual([]);
    expect(await idsIn([organizations[0]!])).toEqual([organizations[0]]);
    expect(await idsIn([...organizations, `it's "not", an id`])).toEqual(organizations);
  });

  it("given 2,000 values, more than SQLite lets a statement bind one by one (999 in older builds), should still answer", async () => {
    const organizations = (await testDatabase().organization.findMany({ select: { id: true }, take: 1 })).map((row) => row.id);
    const many = [...Array.from({ length: 1999 }, (_, i) => `missing-${i}`), organizations[0]!];
    expect(await idsIn(many)).toEqual(organizations);
  });
});

/**
 * A key bound with keyPlaceholder (`+?` on SQLite, ADR 100): the same value, so the same rows,
 * and each table still found through its key's index; only the planner no longer reads the value,
 * so better-sqlite3 clearing the parameters after a call does not make SQLite plan it again.
 */
describe("a key bound with keyPlaceholder", () => {
  const client = openSqlClient(inject("databaseUrl"), { poolSize: 1 });
  afterAll(() => client.close());

  it("given a join looked up by a user's id, should answer what a plain placeholder answers", async () => {
    const user = await testDatabase().user.findFirstOrThrow({ select: { id: true, organizationId: true } });
    const userWithOrganization = (placeholder: string) =>
      `SELECT u."id", o."id" AS "organizationId" FROM "User" AS u JOIN "Organization" AS o ON o."id" = u."organizationId" WHERE u."id" = ${placeholder}`;
    const rows = await client.all(userWithOrganization(keyPlaceholder(client.dialect)), [user.id]);
    expect(rows).toEqual([{ id: user.id, organizationId: user.organizationId }]);
    expect(rows).toEqual(await client.all(userWithOrganization("?"), [user.id]));
    expect(await client.all(userWithOrganization(keyPlaceholder(client.dialect)), ["no-such-user"])).toEqual([]);
  });

  it("given the caller's statements, should search every table by an index on SQLite and keep a numbered placeholder on PostgreSQL", async () => {
    if (client.dialect === "postgresql") {
      expect([CALLER_OF_SESSION.postgresql, CALLER_OF_TOKEN.postgresql].map((sql) => sql.includes("+?"))).toEqual([false, false]);
      expect(await client.all(CALLER_OF_SESSION.postgresql, ["no-such-session"], { name: "caller-of-session" })).toEqual([]);
      return;
    }
    for (const statement of [CALLER_OF_SESSION.sqlite, CALLER_OF_TOKEN.sqlite]) {
      const plan = await client.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${statement}`, ["no-such-key"]);
      expect(plan.length).toBe(4);
      for (const { detail } of plan) expect(detail, statement).toMatch(/^SEARCH \w+ USING (COVERING )?INDEX /);
    }
  });
});
