import { afterAll, describe, expect, inject, it } from "vitest";
import { isDatabaseAvailable } from "../../app/lib/database-health.server.ts";
import { createDatabase } from "../../app/lib/db.server.ts";
import { classifyRequestFailure, faultResponse, isTransactionTimeout } from "../../app/lib/request-faults.server.ts";

/**
 * A transaction that cannot start in time (every connection busy on PostgreSQL, another
 * transaction holding SQLite's one connection) is an overloaded server, not a bug: the request is
 * answered 503 with Retry-After and the database is not marked unavailable. A fresh-clone CI run on
 * a machine starved of CPU once answered a form's creation with a 500 for this.
 */
describe("a transaction that cannot start in time", () => {
  const databaseUrl = inject("databaseUrl");
  const client = createDatabase(databaseUrl);
  afterAll(() => client.$disconnect());

  it("given every connection held by an open transaction, should fail with P2028, classified busy and answered 503 with Retry-After", async () => {
    // The PostgreSQL pool holds 10 connections (app/lib/db.server.ts); SQLite's adapter has one.
    const held = databaseUrl.startsWith("file:") ? 1 : 10;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = 0;
    let allStarted!: () => void;
    const allHeld = new Promise<void>((resolve) => (allStarted = resolve));
    const holders = Array.from({ length: held }, () =>
      client.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1`;
        if (++started === held) allStarted();
        await gate;
      }),
    );
    await allHeld;

    const failure = await client
      .$transaction(async (tx) => tx.$queryRaw`SELECT 1`, { maxWait: 1 })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    release();
    await Promise.all(holders);

    expect(isTransactionTimeout(failure), String(failure)).toBe(true);
    const request = new Request("http://localhost/api/forms", { method: "POST" });
    expect(classifyRequestFailure(request, failure)).toBe("busy");
    expect(isDatabaseAvailable()).toBe(true);
    const api = faultResponse("busy", "/api/forms");
    expect(api.status).toBe(503);
    expect(api.headers.get("Retry-After")).toBe("2");
    expect(await api.json()).toMatchObject({ status: 503, code: "SERVER_BUSY" });
    const page = faultResponse("busy", "/es/forms/new");
    expect(page.status).toBe(503);
    expect(await page.text()).toContain(`lang="es"`);
    // The same client still works once the others are done.
    const [row] = await client.$transaction(async (tx) => tx.$queryRaw<{ one: number | bigint }[]>`SELECT 1 AS one`);
    expect(Number(row?.one)).toBe(1);
  });
});
