import { afterAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { inValues, openSqlClient } from "../../app/lib/sql-client.server.ts";
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
