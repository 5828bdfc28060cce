import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { api, baseUrl, unique } from "../support/api.ts";
import { type CreatedForm, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { DESKTOP, screenshot, sharedBrowser, signedInContext } from "../support/browser.ts";
import { testDatabase } from "../support/database.ts";
import { createOrganization, createSignedInUser } from "../support/fixtures.ts";

/**
 * Sharing a class and answering to a data-protection officer (docs/api-contract.md §19–21), through
 * the pages in real Chromium, once with JavaScript on and once off: an administrator shares a class
 * with a co-teacher as its viewer; the co-teacher sees the class's result but cannot assign to it;
 * the administrator reads that in the audit log, downloads a pupil's data and anonymises them,
 * after which the pupil's name is nowhere on the result and the audit log says what was done.
 */
const browser = sharedBrowser();

const hydrated = async (page: Page, javaScriptEnabled: boolean) => {
  if (javaScriptEnabled) await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
};

/** The page's text, its spaces collapsed. */
const mainText = async (page: Page) => ((await page.locator("main").textContent()) ?? "").replace(/\s+/g, " ");

describe("sharing a class and protecting a pupil's data", () => {
  for (const javaScriptEnabled of [true, false]) {
    const mode = javaScriptEnabled ? "js" : "nojs";
    it(`given JavaScript ${javaScriptEnabled ? "on" : "off"}, should let an administrator share a class as viewer, the co-teacher read but not assign, and the administrator read it in the audit log, export a pupil's data and anonymise them`, async () => {
      // Not the journey's point, through the API: the school, the class's teacher and co-teacher,
      // the class with a pupil, and the pupil's completed test.
      const school = await createOrganization(`School ${mode}`);
      const coTeacher = await createSignedInUser("TEACHER", { as: "superadmin@demo.test", organizationId: school.id });
      const coTeacherName = coTeacher.profile.name as string;
      const className = unique("Class 7B");
      const group = await api("POST", "/api/groups", { cookie: school.teacher, json: { name: className } });
      expect(group.status, group.text).toBe(201);
      const pupilName = `Lucía Fernández ${unique(mode)}`;
      const pupilEmail = `${unique("lucia").toLowerCase()}@school.test`;
      const pupil = await api("POST", "/api/students", { cookie: school.teacher, json: { name: pupilName, email: pupilEmail, externalId: unique("R") } });
      expect(pupil.status, pupil.text).toBe(201);
      expect((await api("POST", `/api/groups/${group.body.id}/members`, { cookie: school.teacher, json: { studentIds: [pupil.body.id] } })).status).toBe(200);
      const form = await api("POST", "/api/forms", { cookie: school.teacher, json: { ...mixedForm(unique("Fractions quiz")), isPublished: true } });
      expect(form.status, form.text).toBe(201);
      const bulk = await api("POST", "/api/submissions/bulk", { cookie: school.teacher, json: { formId: form.body.id, groupId: group.body.id } });
      expect(bulk.status, bulk.text).toBe(201);
      const link = bulk.body.created[0] as { id: string; token: string };
      const submit = await api("POST", `/api/test-link/${link.token}/submit`, { json: mediumAnswers(form.body as CreatedForm) });
      expect(submit.status, submit.text).toBe(200);
      const { totalScore: score } = await testDatabase().submission.findUniqueOrThrow({ where: { id: link.id }, select: { totalScore: true } });
      // The co-teacher's own quiz, which they would give the class.
      const ownForm = await api("POST", "/api/forms", { cookie: coTeacher.cookie, json: { ...mixedForm(unique("Decimals quiz")), isPublished: true } });
      expect(ownForm.status, ownForm.text).toBe(201);

      const options = { viewport: DESKTOP, javaScriptEnabled, bypassCSP: javaScriptEnabled, acceptDownloads: true };
      const adminContext = await signedInContext(browser(), school.admin, options);
      const coTeacherContext = await signedInContext(browser(), coTeacher.cookie, options);
      const admin = await adminContext.newPage();
      const colleague = await coTeacherContext.newPage();
      try {
        // 1. The administrator adds the co-teacher to the class's staff as a viewer.
        await admin.goto(`${baseUrl()}/en/groups/${group.body.id}`);
        await admin.getByRole("heading", { level: 1, name: className }).waitFor();
        await admin.waitForLoadState("load");
        await hydrated(admin, javaScriptEnabled);
        const staff = admin.locator("#staff");
        await staff.getByRole("combobox", { name: "Colleague" }).selectOption({ label: coTeacherName });
        await staff.getByRole("combobox", { name: "Role", exact: true }).selectOption({ label: "Viewer" });
        await staff.getByRole("button", { name: "Add to the staff" }).click();
        await admin.getByText("The group's staff is changed.").waitFor();
        await admin.locator("#staff").getByText(coTeacherName, { exact: true }).waitFor();
        await screenshot(admin, `sharing-staff-${mode}.png`);

        // 2. The co-teacher sees the class's result...
        await colleague.goto(`${baseUrl()}/en/reports`);
        await colleague.getByRole("link", { name: pupilName }).first().click();
        await colleague.waitForURL(`${baseUrl()}/en/reports/${link.id}`);
        await colleague.getByRole("heading", { level: 1 }).waitFor();
        expect(await mainText(colleague)).toContain(pupilName);
        // ...but may not assign to the class.
        await colleague.goto(`${baseUrl()}/en/assignments/new`);
        await colleague.getByRole("heading", { level: 1, name: "Assign a test" }).waitFor();
        await colleague.waitForLoadState("load");
        await hydrated(colleague, javaScriptEnabled);
        await colleague.getByRole("combobox", { name: /^Form/ }).selectOption({ label: ownForm.body.title });
        await colleague.getByRole("combobox", { name: /^Respondent/ }).selectOption(`group:${group.body.id}`);
        await colleague.getByRole("button", { name: /^Assign/ }).click();
        await colleague.getByText("only its owners and editors may assign to it").first().waitFor();
        expect(await testDatabase().submission.count({ where: { formId: ownForm.body.id } })).toBe(0);
        await screenshot(colleague, `sharing-viewer-refused-${mode}.png`);

        // 3. The administrator reads who changed the class's staff.
        await admin.goto(`${baseUrl()}/en/admin/users`);
        await admin.getByRole("link", { name: "Audit log" }).click();
        await admin.getByRole("heading", { level: 1, name: "Audit log" }).waitFor();
        await admin.waitForLoadState("load");
        await hydrated(admin, javaScriptEnabled);
        await admin.getByRole("combobox", { name: "What" }).selectOption({ label: "Group staff changed" });
        await admin.getByRole("button", { name: "Search" }).click();
        await admin.waitForURL(/action=group\.staff_changed/);
        const staffEvent = admin.locator('[data-audit-action="group.staff_changed"]');
        await expect.poll(() => staffEvent.count()).toBe(1);
        expect(await staffEvent.locator(`a[href="/en/groups/${group.body.id}"]`).count()).toBe(1);
        await screenshot(admin, `sharing-audit-${mode}.png`);

        // 4. The pupil's data, downloaded as a file.
        await admin.goto(`${baseUrl()}/en/students/${pupil.body.id}`);
        await admin.getByRole("heading", { level: 1, name: pupilName }).waitFor();
        await hydrated(admin, javaScriptEnabled);
        const [download] = await Promise.all([admin.waitForEvent("download"), admin.getByRole("link", { name: "Download their data (JSON)" }).click()]);
        const exported = JSON.parse(readFileSync((await download.path())!, "utf8"));
        expect(JSON.stringify(exported)).toContain(pupilName);
        expect(JSON.stringify(exported)).toContain(link.id);

        // 5. Anonymised, after typing their name.
        await admin.getByRole("link", { name: "Erase…" }).click();
        await admin.getByRole("heading", { level: 1, name: `Erase ${pupilName}` }).waitFor();
        await admin.waitForLoadState("load");
        await hydrated(admin, javaScriptEnabled);
        await admin.getByRole("radio", { name: /^Anonymise/ }).check();
        await admin.getByLabel(/To confirm, type their name/).fill(pupilName);
        await screenshot(admin, `data-protection-erase-${mode}.png`);
        await admin.getByRole("button", { name: "Erase for good" }).click();
        await admin.waitForURL((url) => !url.pathname.endsWith("/erase"));

        // The result stays, its score too, without the pupil's name.
        await admin.goto(`${baseUrl()}/en/reports/${link.id}`);
        await admin.getByRole("heading", { level: 1 }).waitFor();
        const report = await mainText(admin);
        expect(report).not.toContain(pupilName);
        expect(report).toContain(String(score));
        const stored = await testDatabase().student.findUniqueOrThrow({ where: { id: pupil.body.id }, select: { name: true, email: true } });
        expect(stored.name).not.toContain("Lucía");
        expect(stored.email).toBeNull();

        // The audit log says what was done, naming the pupil by id only.
        await admin.goto(`${baseUrl()}/en/admin/audit?targetId=${pupil.body.id}`);
        await admin.getByRole("heading", { level: 1, name: "Audit log" }).waitFor();
        const log = await mainText(admin);
        expect(log).toContain("Person anonymised");
        expect(log).toContain("Person's data exported");
        expect(log).not.toContain(pupilName);
      } finally {
        await adminContext.close();
        await coTeacherContext.close();
      }
    });
  }
});
