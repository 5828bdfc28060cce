import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { createOrganization, errorPaths, expectProblem, type OwnOrganization } from "../support/fixtures.ts";

/**
 * Reading the audit log over real HTTP (docs/api-contract.md §20, ADR 87): who may read it, its
 * filters and order, and its CSV export, which is itself recorded. The events are written
 * straight into the table here: which action writes which event is tests/api/audit-events.test.ts.
 */

let own: OwnOrganization;
let other: OwnOrganization;
let adminId: string;
/** The events written for this file, oldest first. */
const written: { id: string; action: string; at: Date; targetId: string; actorId: string | null }[] = [];

async function writeEvent(organizationId: string, action: string, at: Date, targetType: string, targetId: string, actorId: string | null) {
  const row = await testDatabase().auditEvent.create({
    data: {
      organizationId,
      action,
      at,
      actorKind: actorId ? "USER" : "SYSTEM",
      actorId,
      actorName: actorId ? "Fixture admin" : null,
      targetType,
      targetId,
      details: { fields: ["name"] },
    },
  });
  return { id: row.id, action, at, targetId, actorId };
}

beforeAll(async () => {
  [own, other] = await Promise.all([createOrganization("Audited"), createOrganization("Audited elsewhere")]);
  const me = await api("GET", "/api/user/profile", { cookie: own.admin });
  adminId = me.body.id;
  const day = (n: number) => new Date(Date.UTC(2026, 2, n, 12));
  written.push(await writeEvent(own.id, "form.created", day(1), "form", "form-one", adminId));
  written.push(await writeEvent(own.id, "form.updated", day(2), "form", "form-one", adminId));
  written.push(await writeEvent(own.id, "student.created", day(3), "student", "student-one", own.teacherId));
  written.push(await writeEvent(own.id, "retention.applied", day(4), "organization", own.id, null));
  await writeEvent(other.id, "form.created", day(2), "form", "form-elsewhere", null);
});

const ownEvents = (events: { id: string }[]) => events.filter((event) => written.some((w) => w.id === event.id));

describe("GET /api/audit", () => {
  it("gives an administrator their organization's events, newest first, and nothing of another organization", async () => {
    const response = await api("GET", "/api/audit?limit=100&from=2026-03-01&to=2026-03-31", { cookie: own.admin });
    expect(response.status, response.text).toBe(200);
    expect(response.body.events.map((event: { id: string }) => event.id)).toEqual(written.map((event) => event.id).reverse());
    expect(response.body.total).toBe(written.length);
    const [newest] = response.body.events;
    expect(newest).toMatchObject({ action: "retention.applied", actor: { kind: "SYSTEM", id: null }, target: { type: "organization", id: own.id } });
    expect(response.body.events[3]).toMatchObject({ actor: { kind: "USER", id: adminId, name: "Fixture admin" }, details: { fields: ["name"] } });
  });

  it("filters by who, what, about what and when", async () => {
    const read = async (query: string) => {
      const response = await api("GET", `/api/audit?limit=100&${query}`, { cookie: own.admin });
      expect(response.status, response.text).toBe(200);
      return ownEvents(response.body.events).map((event: { id: string }) => event.id);
    };
    const ids = (pick: (event: (typeof written)[number]) => boolean) =>
      written
        .filter(pick)
        .map((event) => event.id)
        .reverse();
    expect(await read(`actorId=${adminId}`)).toEqual(ids((event) => event.actorId === adminId));
    expect(await read("action=form.updated")).toEqual(ids((event) => event.action === "form.updated"));
    expect(await read("targetType=form&targetId=form-one")).toEqual(ids((event) => event.targetId === "form-one"));
    expect(await read("from=2026-03-02&to=2026-03-03")).toEqual(
      ids((event) => event.at >= new Date(Date.UTC(2026, 2, 2)) && event.at < new Date(Date.UTC(2026, 2, 4))),
    );
  });

  it("pages the events", async () => {
    const first = await api("GET", "/api/audit?limit=2&page=1&from=2026-03-01&to=2026-03-31", { cookie: own.admin });
    const second = await api("GET", "/api/audit?limit=2&page=2&from=2026-03-01&to=2026-03-31", { cookie: own.admin });
    expect([...first.body.events, ...second.body.events].map((event: { id: string }) => event.id)).toEqual(written.map((event) => event.id).reverse());
    expect(second.body).toMatchObject({ page: 2, limit: 2, total: 4 });
  });

  it("refuses a teacher, a stranger and bad filters", async () => {
    expectProblem(await api("GET", "/api/audit", { cookie: own.teacher }), 403);
    expectProblem(await api("GET", "/api/audit"), 401);
    const badAction = await api("GET", "/api/audit?action=form.burned", { cookie: own.admin });
    expectProblem(badAction, 400);
    expect(errorPaths(badAction)).toEqual(["action"]);
    const backwards = await api("GET", "/api/audit?from=2026-03-05&to=2026-03-01", { cookie: own.admin });
    expectProblem(backwards, 400);
    expect(errorPaths(backwards)).toEqual(["from"]);
    // Another organization is a SUPER_ADMIN's to name.
    expectProblem(await api("GET", `/api/audit?organizationId=${other.id}`, { cookie: own.admin }), 403);
  });

  it("lets a SUPER_ADMIN read one organization's events", async () => {
    const response = await api("GET", `/api/audit?organizationId=${other.id}&limit=100`, { as: "superadmin@demo.test" });
    expect(response.status, response.text).toBe(200);
    expect(response.body.events.map((event: { target: { id: string } }) => event.target.id)).toContain("form-elsewhere");
    expect(response.body.events.every((event: { id: string }) => !written.some((w) => w.id === event.id))).toBe(true);
  });

  it("offers no way to change or remove an event", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const response = await api(method, "/api/audit", { cookie: own.admin, json: {} });
      expect(response.status, `${method} /api/audit`).toBe(405);
    }
  });
});

describe("GET /api/audit/export", () => {
  it("streams the filtered events as CSV and records the export with its filters and row count", async () => {
    const response = await api("GET", "/api/audit/export?from=2026-03-01&to=2026-03-31&targetType=form", { cookie: own.admin });
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows: Record<string, string>[] = parse(response.text, { bom: true, columns: true });
    const forms = written.filter((event) => event.targetId === "form-one").reverse();
    expect(rows.map((row) => [row.action, row.targetId, row.at])).toEqual(forms.map((event) => [event.action, event.targetId, event.at.toISOString()]));
    expect(JSON.parse(rows[0]?.details ?? "null")).toEqual({ fields: ["name"] });

    const recorded = await testDatabase().auditEvent.findMany({ where: { organizationId: own.id, action: "export.created" } });
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      actorKind: "USER",
      actorId: adminId,
      requestId: response.headers.get("x-request-id"),
      details: { kind: "audit", filters: { from: "2026-03-01", to: "2026-03-31", targetType: "form" }, rowCount: forms.length },
    });
  });

  it("is refused to a teacher", async () => {
    expectProblem(await api("GET", "/api/audit/export", { cookie: own.teacher }), 403);
  });

  it("reads a long log in batches, each event once", async () => {
    const organization = await createOrganization(unique("Long log"));
    const at = new Date(Date.UTC(2026, 4, 1));
    // Equal times on purpose: the batches' boundary falls between events of the same moment.
    await testDatabase().auditEvent.createMany({
      data: Array.from({ length: 2_345 }, (_, index) => ({
        organizationId: organization.id,
        at,
        actorKind: "SYSTEM" as const,
        action: "retention.applied",
        targetType: "organization",
        targetId: `t${index}`,
      })),
    });
    const response = await api("GET", "/api/audit/export?action=retention.applied", { cookie: organization.admin });
    const rows: Record<string, string>[] = parse(response.text, { bom: true, columns: true });
    expect(rows).toHaveLength(2_345);
    expect(new Set(rows.map((row) => row.targetId)).size).toBe(2_345);
  });
});
