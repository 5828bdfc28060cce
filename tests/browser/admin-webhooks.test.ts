import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { seriousAccessibilityViolations } from "../support/axe.ts";
import { sharedBrowser, signedInContext, screenshot } from "../support/browser.ts";
import { testDatabase } from "../support/database.ts";

/**
 * The administrators' webhooks page in Chromium, JavaScript off and on: add an endpoint for one form
 * (its secret shown once), see a delivery arrive and its state, send it again, send a test and read
 * what the endpoint answered, remove the endpoint. The receiver listens on loopback (the suite's
 * server allows it). Screenshots go to $SCREENSHOT_DIR.
 */
const browser = sharedBrowser();
const admin = "admin@other.test" as const;
let receiver: Server;
let port = 0;
const bodies: string[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      bodies.push(body);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

/**
 * How long a delivery may take to arrive. In a full PostgreSQL run the four delivery lanes are
 * shared with the API tests' endpoints in this organization, some of which hold their answer on
 * purpose; 20 s was passed twice in fresh-clone CI runs (2026-11-28). Not a timing assertion.
 */
const DELIVERY_WAIT_MS = 45_000;

describe("the webhooks page", () => {
  it.each([false, true])(
    "given an administrator (JavaScript %s), should add a webhook, show its deliveries, send one again and remove it",
    async (javaScriptEnabled) => {
      const url = `http://127.0.0.1:${port}/${unique("hook")}`;
      const form = await api("POST", "/api/forms", { as: admin, json: { title: unique("Told form"), isPublished: false } });
      expect(form.status, form.text).toBe(201);
      // bypassCSP only so axe can be injected.
      const context = await signedInContext(browser(), sessionOf(admin), { javaScriptEnabled, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${baseUrl()}/en/admin/users`);
      await page.getByRole("link", { name: "Webhooks" }).click();
      await page.getByLabel("Address").fill(url);
      await page.getByRole("button", { name: "Add the webhook" }).click();
      // No event chosen: said by the events.
      await page.getByText("Choose at least one event.").waitFor();
      await page.getByLabel("Address").fill(url);
      // By role and whole name: other webhooks of this organization (the API tests' own) may list
      // deliveries whose "send again" buttons name the event too.
      // Other Clinic is a clinic: its pages say patients (ADR 81).
      await page.getByRole("checkbox", { name: "A patient is added", exact: true }).check();
      // Only this form's events; a student's are about no form, and still come.
      await page.getByRole("checkbox", { name: form.body.title, exact: true }).check();
      await page.getByRole("button", { name: "Add the webhook" }).click();
      await page.getByText("The webhook is added. Copy its signing secret now: it is not shown again.").waitFor();
      expect(await page.getByLabel(/^Signing secret/).inputValue()).toMatch(/^whsec_/);
      await page.locator("li", { hasText: url }).getByText(`Forms: ${form.body.title}`).waitFor();

      const student = (await api("POST", "/api/students", { as: admin, json: { name: unique("Webhooked") } })).body;
      await expect.poll(() => bodies.filter((body) => body.includes(student.id)).length, { timeout: DELIVERY_WAIT_MS }).toBe(1);
      const item = page.locator("li", { hasText: url });
      await expect
        .poll(
          async () => {
            await page.goto(`${baseUrl()}/en/admin/webhooks`);
            return item.getByText("Delivered").count();
          },
          { timeout: DELIVERY_WAIT_MS },
        )
        .toBeGreaterThan(0);
      if (javaScriptEnabled) expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `admin-webhooks-js-${javaScriptEnabled}.png`);

      // The delivery of this test's student: other test files add students to the same
      // organization meanwhile, and this webhook receives those too, so the newest delivery in the
      // list need not be ours (seen on PostgreSQL in a fresh-clone CI).
      const ours = await testDatabase().webhookDelivery.findFirstOrThrow({
        where: { webhook: { url }, payload: { contains: student.id } },
        select: { id: true },
      });
      await item
        .locator("li", { has: page.locator(`input[name="deliveryId"][value="${ours.id}"]`) })
        .getByRole("button", { name: /^Send again: A patient is added/ })
        .click();
      await page.getByText("The delivery is queued again.").waitFor();
      await expect.poll(() => bodies.filter((body) => body.includes(student.id)).length, { timeout: DELIVERY_WAIT_MS }).toBe(2);

      // A test goes at once, and the page says what the endpoint answered.
      await page.getByRole("button", { name: `Send test: ${url}` }).click();
      await page.getByText("The test delivery arrived: the endpoint answered 200.").waitFor();
      expect(bodies.filter((body) => body.includes('"webhook.test"')).length).toBeGreaterThan(0);

      await page
        .locator("li", { hasText: url })
        .getByRole("button", { name: `Remove the webhook ${url}` })
        .click();
      await page.getByText("The webhook is removed.").waitFor();
      expect(await page.locator("li", { hasText: url }).count()).toBe(0);
      await context.close();
    },
    // Three waits for deliveries, each up to DELIVERY_WAIT_MS, and the page's steps.
    3 * DELIVERY_WAIT_MS + 30_000,
  );
});
