import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { api, baseUrl, type DemoUser, sessionOf, unique } from "../support/api.ts";
import { assign, completeMedium, createForm, createStudent } from "../support/assessment.ts";
import { BAD_QUERY_STRINGS } from "../support/malformed-input.ts";

/**
 * Every page the service serves to a GET, given the query strings of tests/support/malformed-input.ts
 * (the API's own corpus): a page reads its query parameters as the API does (app/lib/http.server.ts),
 * so a hand-edited or scanned address gets the page, with what it cannot use left out, or a 4xx
 * page, in the page's language; never a 500, a stack trace in the log, or a server out of memory.
 */
const ids = { form: "", student: "", candidate: "", group: "", assignment: "", report: "", token: "" };

beforeAll(async () => {
  const { form, student, assignment } = await completeMedium("teacher@demo.test");
  const candidate = await api("POST", "/api/candidates", { as: "teacher@demo.test", json: { name: unique("Candidate") } });
  expect(candidate.status).toBe(201);
  const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: unique("Group") } });
  expect(group.status).toBe(201);
  const pending = await assign("teacher@demo.test", {
    formId: (await createForm("teacher@demo.test")).id,
    studentId: (await createStudent("teacher@demo.test")).id,
  });
  Object.assign(ids, {
    form: form.id,
    student: student.id,
    candidate: candidate.body.id,
    group: group.body.id,
    assignment: assignment.id,
    report: assignment.id,
    token: pending.token,
  });
});

/** Each GET page of app/routes.ts, as the path after the language, with who asks for it. */
const PAGES: [string, DemoUser | null][] = [
  ["home", "teacher@demo.test"],
  ["forms", "teacher@demo.test"],
  ["forms/new", "teacher@demo.test"],
  ["forms/templates", "teacher@demo.test"],
  ["forms/:form", "teacher@demo.test"],
  ["forms/:form/delete", "teacher@demo.test"],
  ["forms/:form/preview", "teacher@demo.test"],
  ["forms/:form/summary", "teacher@demo.test"],
  ["forms/:form/rescore", "teacher@demo.test"],
  ["students", "teacher@demo.test"],
  ["students/new", "teacher@demo.test"],
  ["students/import", "teacher@demo.test"],
  ["students/:student", "admin@demo.test"],
  ["students/:student/edit", "teacher@demo.test"],
  ["students/:student/erase", "admin@demo.test"],
  ["candidates", "teacher@demo.test"],
  ["candidates/new", "teacher@demo.test"],
  ["candidates/import", "teacher@demo.test"],
  ["candidates/:candidate", "admin@demo.test"],
  ["candidates/:candidate/edit", "teacher@demo.test"],
  ["candidates/:candidate/erase", "admin@demo.test"],
  ["groups", "teacher@demo.test"],
  ["groups/new", "teacher@demo.test"],
  ["groups/:group", "teacher@demo.test"],
  ["groups/:group/edit", "teacher@demo.test"],
  ["profile", "teacher@demo.test"],
  ["profile/tokens", "teacher@demo.test"],
  ["admin/users", "admin@demo.test"],
  ["admin/organization", "admin@demo.test"],
  ["admin/webhooks", "admin@demo.test"],
  ["admin/audit", "admin@demo.test"],
  ["assignments", "teacher@demo.test"],
  ["assignments/new", "teacher@demo.test"],
  ["assignments/:assignment", "teacher@demo.test"],
  ["reports", "teacher@demo.test"],
  ["reports", "admin@demo.test"],
  ["reports/:report", "teacher@demo.test"],
  ["reports/:report/pdf", "teacher@demo.test"],
  ["login", null],
  ["login/oidc-error", null],
  ["forgot-password", null],
  ["reset-password", null],
  ["test/:token", null],
];

const LOCALES = ["en", "es", "pt-BR"] as const;

describe("pages given malformed query strings", () => {
  it.each(PAGES.map(([page, user], index) => [page, user, LOCALES[index % LOCALES.length]!] as const))(
    "given each of them on /%s (%s, in %s), should answer the page or a 4xx in the page's language, never 500",
    async (page, user, locale) => {
      const path = `/${locale}/${page.replace(/:(\w+)/g, (_, name: keyof typeof ids) => ids[name])}`;
      const cookie = user ? sessionOf(user) : undefined;
      const plain = await fetch(`${baseUrl()}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
      await plain.arrayBuffer();
      // Without a query: the page, or (a reset link without its token) a 4xx page.
      expect(plain.status, `${path} without a query`).toBeLessThan(500);
      for (const query of BAD_QUERY_STRINGS) {
        const response = await fetch(`${baseUrl()}${path}?${query}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
        const body = await response.text();
        const what = `${path}?${query}`;
        expect(response.status, what).toBeLessThan(500);
        // The same answer as without the query, its bad part left out (a page of errors says so in 4xx).
        if (response.status < 300 || response.status >= 400) expect(Math.floor(response.status / 100), what).toBe(Math.floor(plain.status / 100));
        if ((response.headers.get("content-type") ?? "").startsWith("text/html")) expect(body, what).toContain(`<html lang="${locale}"`);
      }
    },
  );

  it("given them on the reports page, should still apply the filters it can use", async () => {
    const { form, student } = await completeMedium("teacher@demo.test", unique("Orsted"));
    const session = sessionOf("teacher@demo.test");
    const reportLinks = async (query: string) => {
      const page = await fetch(`${baseUrl()}/en/reports?${query}`, { headers: { cookie: session } });
      expect(page.status, query).toBe(200);
      return [...new Set([...(await page.text()).matchAll(/href="\/en\/reports\/(\w+)"/g)].map((match) => match[1]))];
    };
    const clean = await reportLinks(`formId=${form.id}`);
    expect(clean).toHaveLength(1);
    expect(await reportLinks(`a[=1&formId=${form.id}&__proto__=1&x[99999999]=1&constructor.prototype=1&%E0%A4%A=1`)).toEqual(clean);
    // A repeated search is left out, as any filter the page cannot use.
    expect(await reportLinks(`formId=${form.id}&search=zz&search=${encodeURIComponent(student.name)}`)).toEqual(clean);
  });

  it("should leave no stack trace of them in the server log", async () => {
    const log = readFileSync(inject("serverLog"), "utf8");
    expect(log).not.toMatch(/Invalid path (syntax|segment)/);
    expect(log).not.toMatch(/heap out of memory/);
  });
});
