import { readFileSync } from "node:fs";
import { describe, expect, inject, it } from "vitest";
import { api, baseUrl, sessionOf, unique, withCsrf } from "../support/api.ts";
import { assign, createForm, createStudent, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { errorPaths, expectProblem } from "../support/fixtures.ts";
import { BAD_FIELD_NAMES, BAD_QUERY_STRINGS } from "../support/malformed-input.ts";

/**
 * Input a client should never send, answered as the client's mistake (400) rather than as ours
 * (500): form field names and query parameters that do not parse or reach an object's prototype
 * (tests/support/malformed-input.ts; the pages' side is tests/pages/malformed-queries.test.ts),
 * control characters in searches and text, and scores large enough to overflow a total.
 */

const form = (fields: [string, string][]) => ({
  headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl() },
  body: new URLSearchParams(fields).toString(),
});

describe("form field names that cannot be read", () => {
  it.each(BAD_FIELD_NAMES)("given the field name %j, should answer 400 on every API form endpoint, signed in or not", async (name) => {
    const assignment = await assign("teacher@demo.test", {
      formId: (await createForm("teacher@demo.test")).id,
      studentId: (await createStudent("teacher@demo.test")).id,
    });
    const requests: [string, string, string | undefined][] = [
      ["POST", "/api/auth/callback/credentials", undefined],
      ["POST", "/api/auth/signout", undefined],
      ["POST", `/api/test-link/${assignment.token}/submit`, undefined],
      ["POST", "/api/students", sessionOf("teacher@demo.test")],
      ["PUT", "/api/user/profile", sessionOf("teacher@demo.test")],
    ];
    for (const [method, path, session] of requests) {
      const { headers, body } = form([
        [name, "1"],
        ["email", "a@b.test"],
        ["password", "x"],
        ["name", "Someone"],
      ]);
      const response = await api(method, path, { headers: { ...headers, ...(session ? withCsrf(session) : {}) }, body });
      expectProblem(response, 400);
      expect(response.body.code, `${method} ${path}`).toBe("MALFORMED_BODY");
    }
  });

  it("given an index too large to be a list position, should answer 400", async () => {
    // With a valid CSRF token, so the body itself is what is judged (without one the answer is 403).
    const csrf = await fetch(`${baseUrl()}/api/auth/csrf`);
    const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!;
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const { headers, body } = form([
      ["x[99999999]", "1"],
      ["email", "a@b.test"],
      ["password", "x"],
      ["csrfToken", csrfToken],
    ]);
    expectProblem(await api("POST", "/api/auth/callback/credentials", { headers: { ...headers, cookie }, body }), 400);
  });

  it("given such a name in a page's form, should answer the 400 page in the page's language", async () => {
    const session = sessionOf("teacher@demo.test");
    const csrf = inject("csrf")[session]!;
    for (const name of BAD_FIELD_NAMES.slice(0, 4)) {
      const response = await api("POST", "/es/students/new", {
        cookie: `${session}; ${csrf.cookie}`,
        ...form([
          ["csrfToken", csrf.token],
          ["name", "Alguien"],
          [name, "1"],
        ]),
      });
      expect(response.status, name).toBe(400);
      expect(response.headers.get("content-type")).toContain("text/html");
      expect(response.text).toContain('lang="es"');
    }
  });

  it("given such names on the sign-in and public test pages, should not fail", async () => {
    const assignment = await assign("teacher@demo.test", {
      formId: (await createForm("teacher@demo.test")).id,
      studentId: (await createStudent("teacher@demo.test")).id,
    });
    for (const name of BAD_FIELD_NAMES) {
      for (const path of ["/en/login", `/en/test/${assignment.token}`]) {
        const response = await api(
          "POST",
          path,
          form([
            [name, "1"],
            ["email", "a@b.test"],
            ["password", "x"],
          ]),
        );
        expect(response.status, `${path} ${name}`).toBeLessThan(500);
      }
    }
  });

  it("should leave no stack trace of them in the server log", async () => {
    const log = readFileSync(inject("serverLog"), "utf8");
    expect(log).not.toMatch(/Invalid path (syntax|segment)/);
  });
});

describe("query parameters that cannot be read", () => {
  const LISTS = [
    "/api/reports",
    "/api/reports/export?format=csv",
    "/api/students",
    "/api/candidates",
    "/api/forms",
    "/api/groups",
    "/api/users",
    "/api/submissions",
  ];

  it.each(LISTS)("given each malformed query string on %s, should answer 400 or the list, never 500", async (path) => {
    for (const query of BAD_QUERY_STRINGS) {
      const url = `${path}${path.includes("?") ? "&" : "?"}${query}`;
      const response = await api("GET", url, { as: "admin@demo.test" });
      expect(response.status, url).toBeLessThan(500);
      if (response.status !== 200) expectProblem(response, 400, "VALIDATION_FAILED");
    }
  });

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "constructor.prototype", "a["])(
    "given the parameter %j once, should name it as unknown rather than as given twice",
    async (name) => {
      const response = await api("GET", `/api/reports?${name}=1`, { as: "admin@demo.test" });
      expectProblem(response, 400, "VALIDATION_FAILED");
      expect(response.body.errors).toEqual([{ path: name, message: "Unknown field." }]);
    },
  );

  it("given a parameter more than once, should say so for each", async () => {
    const response = await api("GET", "/api/reports?search=a&page=1&search=b&page=2", { as: "admin@demo.test" });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toEqual(["search", "page"]);
    expect(response.body.errors[0].message).toBe("Give this parameter once.");
  });
});

describe("control characters", () => {
  it.each(["/api/reports", "/api/students", "/api/candidates", "/api/forms", "/api/users"])(
    "given NUL or escape in the search of %s, should answer 400 naming the search",
    async (path) => {
      for (const search of ["abc\u0000", "a\u001bb", "\u007f"]) {
        const response = await api("GET", `${path}?search=${encodeURIComponent(search)}`, { as: "admin@demo.test" });
        expectProblem(response, 400, "VALIDATION_FAILED");
        expect(errorPaths(response)).toEqual(["search"]);
      }
    },
  );

  it("given a control character in a name on a page, should say the value is not valid next to the field", async () => {
    const session = sessionOf("teacher@demo.test");
    const csrf = inject("csrf")[session]!;
    const response = await api("POST", "/en/students/new", {
      cookie: `${session}; ${csrf.cookie}`,
      ...form([
        ["csrfToken", csrf.token],
        ["name", "Ana\u0000"],
        ["status", "ACTIVE"],
      ]),
    });
    expect(response.status).toBe(400);
    expect(response.text).toContain("Remove the control characters (such as tabs or invisible characters).");
  });

  it("given NUL in a page's search, should answer the page, not an error", async () => {
    for (const path of ["/en/reports", "/en/students", "/en/candidates", "/en/forms"]) {
      const response = await api("GET", `${path}?search=abc%00`, { as: "admin@demo.test" });
      expect(response.status, path).toBe(200);
    }
  });

  it("given control characters in a name or an answer, should answer 400 naming the field", async () => {
    const student = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: "Ana\u0000" } });
    expectProblem(student, 400, "VALIDATION_FAILED");
    expect(errorPaths(student)).toEqual(["name"]);

    const created = await createForm("teacher@demo.test");
    const assignment = await assign("teacher@demo.test", { formId: created.id, studentId: (await createStudent("teacher@demo.test")).id });
    const answers = mediumAnswers(created).answers.map((answer) => ("text" in answer ? { ...answer, text: "fine\u0000" } : answer));
    const submit = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: { answers } });
    expectProblem(submit, 400, "VALIDATION_FAILED");

    // Line breaks and tabs in an answer are what people type: kept.
    const kept = mediumAnswers(created).answers.map((answer) => ("text" in answer ? { ...answer, text: "line one\r\n\tline two" } : answer));
    expect((await api("POST", `/api/test-link/${assignment.token}/submit`, { json: { answers: kept } })).status).toBe(200);
  });
});

describe("scores", () => {
  it.each([1e308, -1e308, 1_000_001, -1_000_001])("given an option score of %d, should answer 400 naming it", async (score) => {
    const body = mixedForm();
    body.questions[0]!.options![0]!.score = score;
    const response = await api("POST", "/api/forms", { as: "teacher@demo.test", json: body });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toEqual(["questions.0.options.0.score"]);
  });

  it("given a score range bound past the limit, should answer 400 naming it", async () => {
    const body = mixedForm();
    body.scoreRanges[2]!.max = 1e12;
    const response = await api("POST", "/api/forms", { as: "teacher@demo.test", json: body });
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(errorPaths(response)).toEqual(["scoreRanges.2.max"]);
  });

  it("given scores at the limit, should accept the form and total them", async () => {
    const body = mixedForm(unique("Limits"));
    body.scoreRanges = [{ min: -1_000_000, max: 1_000_000, label: "All", color: "#1A7F37" }];
    body.questions[0]!.options![0]!.score = 1_000_000;
    body.questions[1]!.options![0]!.score = -1_000_000;
    const created = await createForm("teacher@demo.test", body);
    const assignment = await assign("teacher@demo.test", { formId: created.id, studentId: (await createStudent("teacher@demo.test")).id });
    const answers = mediumAnswers(created).answers.map((answer, index) =>
      index === 0 ? { ...answer, optionIds: [created.questions[0]!.options[0]!.id] } : answer,
    );
    const submit = await api("POST", `/api/test-link/${assignment.token}/submit`, { json: { answers } });
    expect(submit.status, submit.text).toBe(200);
    const scored = await api("GET", `/api/submissions/${submit.body.submissionId}`, { as: "teacher@demo.test" });
    expect(scored.body.totalScore).toBe(1_000_000 - 1_000_000 - 1 + 2);
    expect(scored.body.scoreLabel).toBe("All");
  });

  it("given an out-of-range score in the form editor page, should show the field's error in the page's language", async () => {
    const session = sessionOf("teacher@demo.test");
    const csrf = inject("csrf")[session]!;
    const fields: [string, string][] = [
      ["csrfToken", csrf.token],
      ["intent", "save"],
      ["title", unique("Huge")],
      ["questions[0].text", "Pick"],
      ["questions[0].type", "SINGLE_CHOICE"],
      ["questions[0].options[0].text", "A"],
      ["questions[0].options[0].score", "1e308"],
      ["questions[0].options[1].text", "B"],
      ["questions[0].options[1].score", "1"],
    ];
    const response = await api("POST", "/pt-BR/forms/new", { cookie: `${session}; ${csrf.cookie}`, ...form(fields) });
    expect(response.status).toBe(400);
    expect(response.text).toContain("Use um número entre -1.000.000 e 1.000.000.");
  });
});
