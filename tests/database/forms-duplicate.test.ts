import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { actorFor } from "../support/database.ts";

/**
 * duplicateForm (app/features/forms/forms.server.ts) called directly on the test server's
 * database: the copy, its owner and visibility; read back through the API.
 */
async function service() {
  process.env.DATABASE_URL = inject("databaseUrl");
  process.env.DATA_DIR ??= mkdtempSync(path.join(tmpdir(), "forms-duplicate-"));
  return import("../../app/features/forms/forms.server.ts");
}

describe("duplicateForm", () => {
  it("given a form, should copy its questions, options and score ranges as an unpublished form of the caller titled “(copy)”", async () => {
    const { duplicateForm } = await service();
    const source = await api("POST", "/api/forms", {
      as: "teacher@demo.test",
      json: { ...mixedForm(unique("Original")), description: "Read me", targetAudience: "Grade 5" },
    });
    expect(source.status).toBe(201);
    const teacher = await actorFor("teacher@demo.test");

    const copy = await duplicateForm(teacher, source.body.id);

    expect(copy.id).not.toBe(source.body.id);
    expect(copy.title).toBe(`${source.body.title} (copy)`);
    expect(copy).toMatchObject({ isPublished: false, isTemplate: false, description: "Read me", category: "Screening", targetAudience: "Grade 5" });
    expect(copy.createdBy.id).toBe(teacher.userId);
    expect(copy.scoreRanges).toEqual(source.body.scoreRanges);
    const shape = (questions: any[]) =>
      questions.map((q) => ({ text: q.text, type: q.type, required: q.required, options: q.options.map((o: any) => [o.text, o.score]) }));
    expect(shape(copy.questions)).toEqual(shape(source.body.questions));
    // New rows, not shared ones.
    expect(copy.questions.map((q) => q.id)).not.toContain(source.body.questions[0].id);

    const read = await api("GET", `/api/forms/${copy.id}`, { as: "teacher@demo.test" });
    expect(read.status).toBe(200);
    expect(read.body.title).toBe(`${source.body.title} (copy)`);
    const original = await api("GET", `/api/forms/${source.body.id}`, { as: "teacher@demo.test" });
    expect(original.body.isPublished).toBe(true);
  });

  it("given a template of a colleague, should give the caller their own copy with the title chosen", async () => {
    const { duplicateForm } = await service();
    const template = await api("POST", "/api/forms", { as: "teacher@demo.test", json: { ...mixedForm(unique("Template")), isTemplate: true } });
    const colleague = await actorFor("teacher2@demo.test");

    const copy = await duplicateForm(colleague, template.body.id, { title: (title) => title });

    expect(copy.title).toBe(template.body.title);
    expect(copy).toMatchObject({ isTemplate: false, isPublished: false, createdBy: { id: colleague.userId } });
    const asColleague = await api("PUT", `/api/forms/${copy.id}`, { as: "teacher2@demo.test", json: { title: "Mine now" } });
    expect(asColleague.status).toBe(200);
  });

  it("given a colleague's form that is not a template, or another organization's, should answer 404", async () => {
    const { duplicateForm } = await service();
    const form = await api("POST", "/api/forms", { as: "teacher@demo.test", json: mixedForm() });
    await expect(duplicateForm(await actorFor("teacher2@demo.test"), form.body.id)).rejects.toMatchObject({ status: 404 });
    await expect(duplicateForm(await actorFor("admin@other.test"), form.body.id)).rejects.toMatchObject({ status: 404 });
  });
});
