import { beforeAll, describe, expect, it } from "vitest";
import { baseUrl } from "../support/api.ts";
import { testDatabase } from "../support/database.ts";
import { createOrganization, type OwnOrganization } from "../support/fixtures.ts";

/**
 * The administrators' audit log page over plain HTTP (no JavaScript): its filters are a GET form,
 * its words are the page's language, its export link carries the filters.
 */

let own: OwnOrganization;
let other: OwnOrganization;

const page = async (path: string, session: string) => {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { cookie: session }, redirect: "manual" });
  return { status: response.status, html: await response.text() };
};

beforeAll(async () => {
  [own, other] = await Promise.all([createOrganization("Audit page"), createOrganization("Audit page elsewhere")]);
  const at = new Date(Date.UTC(2026, 5, 10, 9));
  await testDatabase().auditEvent.createMany({
    data: [
      {
        organizationId: own.id,
        at,
        actorKind: "USER",
        actorId: own.teacherId,
        actorName: "Ana Teacher",
        action: "form.updated",
        targetType: "form",
        targetId: "form-audited",
      },
      {
        organizationId: own.id,
        at,
        actorKind: "SYSTEM",
        action: "retention.applied",
        targetType: "organization",
        targetId: own.id,
        details: { anonymised: 3 },
      },
      {
        organizationId: other.id,
        at,
        actorKind: "USER",
        actorName: "Someone Elsewhere",
        action: "form.deleted",
        targetType: "form",
        targetId: "form-elsewhere",
      },
    ],
  });
});

describe("the audit log page", () => {
  it("given an administrator, should list their organization's events in the page's language", async () => {
    const { status, html } = await page("/es/admin/audit?from=2026-06-01&to=2026-06-30", own.admin);
    expect(status).toBe(200);
    expect(html).toContain("Registro de auditoría");
    expect(html).toContain("Formulario cambiado</p>");
    expect(html).toContain("Política de conservación aplicada</p>");
    expect(html).toContain("Ana Teacher");
    expect(html).toContain('href="/es/forms/form-audited"');
    expect(html).not.toContain("Someone Elsewhere");
    expect(html).toContain('href="/api/audit/export?from=2026-06-01&amp;to=2026-06-30"');
  });

  it("given a filter, should show only what it matches", async () => {
    const { html } = await page("/pt-BR/admin/audit?action=retention.applied&from=2026-06-01", own.admin);
    expect(html).toContain("Política de retenção aplicada</p>");
    expect(html).not.toContain("Formulário alterado</p>");
    expect(html).toMatch(/<option value="retention.applied" selected="">/);
  });

  it("given a date that is not one, should say so by the field in the page's language", async () => {
    const { status, html } = await page("/es/admin/audit?from=2026-13-45", own.admin);
    expect(status).toBe(200);
    expect(html).toMatch(/aria-invalid="true"[^>]*name="from"|name="from"[^>]*aria-invalid="true"/);
    expect(html).not.toContain("Formulario cambiado</p>");
  });

  it("given a teacher, should answer the 403 page", async () => {
    expect((await page("/en/admin/audit", own.teacher)).status).toBe(403);
  });
});
