import { readFileSync } from "node:fs";
import createClient from "openapi-fetch";
import { describe, expect, inject, it } from "vitest";
import { api, baseUrl, freshIp, unique } from "../support/api.ts";
import type { paths } from "../support/openapi-types.ts";

/**
 * An integrator's client, generated from the OpenAPI document (openapi-typescript's types, used by
 * openapi-fetch): it signs in with the CSRF token the document describes, then makes every write a
 * staff member can make, each call type-checked against the document by `tsc`.
 */

/** Cookies as a client keeps them: each Set-Cookie replaces the cookie of the same name. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(response: Response) {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const name = pair!.slice(0, pair!.indexOf("="));
      this.cookies.set(name, pair!);
    }
  }
  header = () => [...this.cookies.values()].join("; ");
}

/** A signed-in client: the session cookie, and the CSRF token for every write (the csrfHeader scheme). */
async function signedInClient(email: string, password: string) {
  const client = createClient<paths>({ baseUrl: baseUrl() });
  const jar = new CookieJar();
  const csrf = await client.GET("/api/auth/csrf");
  expect(csrf.response.status).toBe(200);
  jar.take(csrf.response);
  const csrfToken = csrf.data!.csrfToken;
  const signIn = await client.POST("/api/auth/callback/credentials", {
    body: { email, password, csrfToken },
    headers: { cookie: jar.header(), "x-forwarded-for": freshIp() },
  });
  expect(signIn.response.status, JSON.stringify(signIn.error)).toBe(200);
  expect(signIn.data?.ok).toBe(true);
  jar.take(signIn.response);
  const headers = () => ({ cookie: jar.header(), "x-csrf-token": csrfToken });
  return { client, headers, jar, csrfToken };
}

describe("a client generated from the OpenAPI document", () => {
  it("given the committed document, should be the one the service serves (npm run openapi regenerates it)", async () => {
    const served = await api("GET", "/api/openapi");
    const committed = JSON.parse(readFileSync("docs/openapi.json", "utf8"));
    expect(served.body).toEqual(committed);
  });

  it("given the generated types, should sign in with the CSRF token and make every write", async () => {
    // An administrator made with the client itself, so changing the password touches no demo user.
    const seed = await signedInClient("admin@demo.test", inject("seedPassword"));
    const email = `${unique("typed")}@typed-client.test`;
    const password = `${unique("Typed")} pass phrase`;
    const created = await seed.client.POST("/api/users", { body: { email, name: "Typed Admin", role: "ADMIN", password }, headers: seed.headers() });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);

    const { client, headers } = await signedInClient(email, password);

    const checked = await client.POST("/api/auth/check-credentials", { body: { email, password }, headers: { "x-forwarded-for": freshIp() } });
    expect(checked.data).toEqual({ twoFactorRequired: false });

    const form = await client.POST("/api/forms", {
      headers: headers(),
      body: {
        title: unique("Typed form"),
        isPublished: true,
        review: "AFTER_SUBMIT",
        scoreRanges: [{ min: 0, max: 3, label: "Any", color: "#1A7F37" }],
        questions: [
          {
            text: "How often?",
            type: "SINGLE_CHOICE",
            required: true,
            points: 3,
            feedback: "Never is the key.",
            options: [
              { text: "Never", score: 0, correct: true },
              { text: "Often", score: 3, feedback: "Not this one." },
            ],
          },
        ],
      },
    });
    expect(form.response.status, JSON.stringify(form.error)).toBe(201);
    const formId = form.data!.id;
    const updatedForm = await client.PUT("/api/forms/{id}", { params: { path: { id: formId } }, headers: headers(), body: { description: "Typed." } });
    expect(updatedForm.response.status, JSON.stringify(updatedForm.error)).toBe(200);

    const student = await client.POST("/api/students", { headers: headers(), body: { name: unique("Typed student") } });
    expect(student.response.status, JSON.stringify(student.error)).toBe(201);
    const studentId = student.data!.id;
    expect((await client.PUT("/api/students/{id}", { params: { path: { id: studentId } }, headers: headers(), body: { grade: "5" } })).response.status).toBe(
      200,
    );

    const candidate = await client.POST("/api/candidates", { headers: headers(), body: { name: unique("Typed candidate"), status: "APPROVED" } });
    expect(candidate.response.status, JSON.stringify(candidate.error)).toBe(201);
    const candidateId = candidate.data!.id;
    expect(
      (await client.PUT("/api/candidates/{id}", { params: { path: { id: candidateId } }, headers: headers(), body: { phone: "555" } })).response.status,
    ).toBe(200);
    const promoted = await client.POST("/api/candidates/{id}/promote", { params: { path: { id: candidateId } }, headers: headers() });
    expect(promoted.response.status, JSON.stringify(promoted.error)).toBe(201);
    const other = await client.POST("/api/candidates", { headers: headers(), body: { name: unique("Typed other") } });
    expect((await client.DELETE("/api/candidates/{id}", { params: { path: { id: other.data!.id } }, headers: headers() })).response.status).toBe(200);

    const assignment = await client.POST("/api/submissions", { headers: headers(), body: { formId, studentId } });
    expect(assignment.response.status, JSON.stringify(assignment.error)).toBe(201);
    const token = assignment.data!.token!;
    const test = await client.GET("/api/test-link/{token}", { params: { path: { token } } });
    const question = test.data!.form.questions[0]!;
    const submitted = await client.POST("/api/test-link/{token}/submit", {
      params: { path: { token } },
      body: { answers: [{ questionId: question.id, optionIds: [question.options[1]!.id] }] },
    });
    expect(submitted.response.status, JSON.stringify(submitted.error)).toBe(200);
    const reviewed = await client.GET("/api/test-link/{token}/review", { params: { path: { token } } });
    expect(reviewed.response.status, JSON.stringify(reviewed.error)).toBe(200);
    expect(reviewed.data!.answers[0]).toEqual({
      questionId: question.id,
      optionIds: [question.options[1]!.id],
      text: null,
      correct: false,
      points: 0,
      feedback: ["Not this one.", "Never is the key."],
    });
    expect(reviewed.data!.score).toEqual({ totalScore: 0, maxScore: 3, percentage: 0 });
    const versions = await client.GET("/api/forms/{id}/versions", { params: { path: { id: formId } }, headers: headers() });
    expect(versions.data?.versions.map((version) => version.results)).toEqual([1]);
    const rescored = await client.POST("/api/forms/{id}/rescore", { params: { path: { id: formId } }, headers: headers(), body: { dryRun: false } });
    expect(rescored.response.status, JSON.stringify(rescored.error)).toBe(200);
    expect(rescored.data).toEqual({ dryRun: false, version: 1, results: 0, changed: [] });
    const pdf = await client.POST("/api/reports/export", { headers: headers(), body: { submissionId: assignment.data!.id }, parseAs: "arrayBuffer" });
    expect(pdf.response.headers.get("content-type")).toBe("application/pdf");

    const teacher = await client.POST("/api/users", {
      headers: headers(),
      body: { email: `${unique("typed-teacher")}@typed-client.test`, name: "Typed Teacher", role: "TEACHER", password: `${unique("Teacher")} pass phrase` },
    });
    expect(teacher.response.status, JSON.stringify(teacher.error)).toBe(201);
    const teacherId = teacher.data!.id;
    expect(
      (await client.PATCH("/api/users/{id}", { params: { path: { id: teacherId } }, headers: headers(), body: { name: "Typed Teacher 2" } })).response.status,
    ).toBe(200);
    expect((await client.POST("/api/users/{id}/sessions/revoke", { params: { path: { id: teacherId } }, headers: headers() })).response.status).toBe(200);

    expect((await client.PUT("/api/user/profile", { headers: headers(), body: { name: "Typed Admin 2" } })).response.status).toBe(200);
    const setup = await client.POST("/api/auth/two-factor/setup", { headers: headers(), body: { method: "TOTP" } });
    expect(setup.response.status, JSON.stringify(setup.error)).toBe(200);
    expect(setup.data!.method).toBe("TOTP");

    expect((await client.DELETE("/api/students/{id}", { params: { path: { id: studentId } }, headers: headers() })).response.status).toBe(200);
    expect((await client.DELETE("/api/forms/{id}", { params: { path: { id: formId } }, headers: headers() })).response.status).toBe(200);

    const changed = await client.POST("/api/user/password", {
      headers: headers(),
      body: { currentPassword: password, newPassword: `${unique("New")} pass phrase` },
    });
    expect(changed.response.status, JSON.stringify(changed.error)).toBe(200);
    const after = createClient<paths>({ baseUrl: baseUrl() });
    const jar = new CookieJar();
    jar.take(changed.response);
    const signedOut = await after.POST("/api/auth/signout", {
      headers: { cookie: `${headers().cookie}; ${jar.header()}` },
      body: { csrfToken: headers()["x-csrf-token"] },
    });
    expect(signedOut.response.status, JSON.stringify(signedOut.error)).toBe(200);
  });
});
