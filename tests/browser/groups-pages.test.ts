import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { createForm, createStudent } from "../support/assessment.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { launchBrowser, PHONE, signedInContext, screenshot } from "../support/browser.ts";

/**
 * The groups pages in Chromium, with JavaScript off (plain posts, post/redirect/get) and on: create
 * a class, find and tick its pupils, remove one, rename it, delete it.
 */
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe("the groups pages", () => {
  it.each([false, true])(
    "given JavaScript %s, should create a group, add pupils found by name, remove one, rename and delete it",
    async (javaScriptEnabled) => {
      // A surname no other test uses, so the search finds exactly these three.
      const surname = unique("Quintero").replaceAll("-", "");
      const [ana, bruno, carla] = await Promise.all(["Ana", "Bruno", "Carla"].map((first) => createStudent("teacher@demo.test", `${first} ${surname}`)));
      const context = await signedInContext(browser, sessionOf("teacher@demo.test"), { javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/groups`);
      await page.getByRole("link", { name: "New group" }).click();
      await page.getByRole("heading", { level: 1, name: "New group" }).waitFor();

      // An empty name is refused next to the field.
      await page.getByRole("button", { name: "Create group" }).click();
      await expect.poll(() => page.locator("#name-error").textContent()).toBe("Enter a name.");
      const name = `5B ${surname}`;
      await page.getByLabel("Name").fill(name);
      await page.getByLabel("Description (optional)").fill("Reading, Tuesdays");
      await page.getByRole("button", { name: "Create group" }).click();
      await page.waitForURL(/\/en\/groups\/[a-z0-9]+$/);
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(name);
      expect(await page.getByText("No members yet.").count()).toBe(1);

      await page.getByLabel("Find people").fill(surname.toLowerCase());
      await page.getByRole("search").getByRole("button", { name: "Search" }).click();
      await page.waitForURL(/q=/);
      await page.getByRole("checkbox", { name: ana!.name }).check();
      await page.getByRole("checkbox", { name: carla!.name }).check();
      await page.getByRole("button", { name: "Add the people ticked" }).click();
      await page.getByText("Added to the group.").waitFor();
      const members = page.locator("#members li");
      await expect.poll(() => members.allTextContents()).toEqual([expect.stringContaining(ana!.name), expect.stringContaining(carla!.name)]);
      // Bruno is still offered; the two added are not.
      await page.getByLabel("Find people").fill(surname.toLowerCase());
      await page.getByRole("search").getByRole("button", { name: "Search" }).click();
      await page.getByRole("checkbox", { name: bruno!.name }).waitFor();
      expect(await page.getByRole("checkbox", { name: ana!.name }).count()).toBe(0);
      if (!javaScriptEnabled) await screenshot(page, "group-page-desktop.png");

      await page.getByRole("button", { name: `Remove ${carla!.name} from the group` }).click();
      await page.getByText("Removed from the group.").waitFor();
      await expect.poll(() => members.allTextContents()).toEqual([expect.stringContaining(ana!.name)]);
      const groupUrl = page.url().replace(/\?.*$/, "");
      const groupId = groupUrl.split("/").pop()!;
      expect((await api("GET", `/api/students?groupId=${groupId}`, { as: "teacher@demo.test" })).body.students.map((s: { id: string }) => s.id)).toEqual([
        ana!.id,
      ]);

      await page.getByRole("link", { name: "Edit" }).click();
      await page.getByRole("heading", { level: 1, name: `Edit ${name}` }).waitFor();
      await page.locator("#name").fill(`${name} (Tue)`);
      await page.getByLabel("Description (optional)").fill("");
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByText("Saved.").waitFor();
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe(`${name} (Tue)`);
      expect((await api("GET", `/api/groups/${groupId}`, { as: "teacher@demo.test" })).body.description).toBeNull();

      await page.getByText("Delete this group").click();
      await page.getByRole("button", { name: "Yes, delete the group" }).click();
      await page.waitForURL(`${baseUrl()}/en/groups`);
      await page.getByText("Deleted.").waitFor();
      expect((await api("GET", `/api/groups/${groupId}`, { as: "teacher@demo.test" })).status).toBe(404);
      await context.close();
    },
  );

  it("given a student's page, should add the student to a group in one step, and the students list should filter by that group", async () => {
    const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: unique("Choir") } });
    const student = await createStudent("teacher@demo.test", unique("Dario Pinto"));
    const context = await signedInContext(browser, sessionOf("teacher@demo.test"), { javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/students/${student.id}`);
    await page.getByText("Not in any group yet.").waitFor();
    await page.getByLabel("Add to a group").selectOption(group.body.id);
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await page.getByText("Added to the group.").waitFor();
    await page.locator("#groups").getByRole("link", { name: group.body.name }).waitFor();

    await page.goto(`${baseUrl()}/en/students`);
    await page.getByLabel("Group").selectOption(group.body.id);
    await page.getByRole("search").getByRole("button", { name: "Search" }).click();
    await page.waitForURL(/groupId=/);
    expect(await page.locator("tbody tr").allTextContents()).toEqual([expect.stringContaining(student.name)]);
    await context.close();
  });

  it.each([false, true])(
    "given a group's page (JavaScript %s), should assign a test to the whole group in one step and list who was skipped",
    async (javaScriptEnabled) => {
      const form = await createForm("teacher@demo.test");
      const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: unique("Assign class") } });
      const pupils = await Promise.all(["Eva", "Fran"].map((first) => createStudent("teacher@demo.test", unique(first))));
      const left = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: unique("Gil"), status: "GRADUATED" } });
      await api("POST", `/api/groups/${group.body.id}/members`, { as: "teacher@demo.test", json: { studentIds: [...pupils.map((p) => p.id), left.body.id] } });

      const context = await signedInContext(browser, sessionOf("teacher@demo.test"), { javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/groups/${group.body.id}`);
      await page.getByRole("link", { name: "Assign a test" }).click();
      await page.waitForURL(/respondent=group/);
      // With JavaScript the URL changes before the new page is drawn: wait for the page itself.
      await page.getByRole("heading", { level: 1, name: "Assign a test" }).waitFor();
      expect(await page.locator("#respondent").inputValue()).toBe(`group:${group.body.id}`);
      await page.locator("#formId").selectOption(form.id);
      await page.getByRole("button", { name: "Assign", exact: true }).click();
      await page.getByText("2 links created.").waitFor();
      expect(await page.getByText("1 person skipped:").count()).toBe(1);
      expect(await page.locator("#skipped-title + ul").textContent()).toContain("Not active");
      const links = await api("GET", `/api/submissions?formId=${form.id}&groupId=${group.body.id}`, { as: "teacher@demo.test" });
      expect(links.body.total).toBe(2);
      await context.close();
    },
  );

  it("given a colleague's group, should show its members but no way to change it", async () => {
    const group = await api("POST", "/api/groups", { as: "teacher2@demo.test", json: { name: unique("Colleague's class") } });
    const context = await signedInContext(browser, sessionOf("teacher@demo.test"));
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/en/groups/${group.body.id}`);
    await page.getByText("Only the group's owners and editors or an administrator can change it.").waitFor();
    expect(await page.getByRole("link", { name: "Edit" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Add the people ticked" }).count()).toBe(0);
    const edit = await page.goto(`${baseUrl()}/en/groups/${group.body.id}/edit`);
    expect(edit?.status()).toBe(403);
    await context.close();
  });

  it("given the list and a group's page on a phone, should have no serious accessibility violations", async () => {
    const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: unique("Phone class") } });
    const context = await signedInContext(browser, sessionOf("teacher@demo.test"), { viewport: PHONE, bypassCSP: true });
    const page = await context.newPage();
    for (const pathname of ["/en/groups", `/en/groups/${group.body.id}`, "/en/groups/new"]) {
      await page.goto(`${baseUrl()}${pathname}`);
      expect(await seriousAccessibilityViolations(page), pathname).toEqual([]);
    }
    await screenshot(page, "group-page-phone.png");
    await context.close();
  });
});
