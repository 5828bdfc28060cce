import { readFileSync } from "node:fs";
import { expect, inject, test } from "vitest";
import { api, freshIp, signIn, unique } from "../support/api.ts";
import { assign, createForm, createStudent } from "../support/assessment.ts";
import { mailTo, waitForMail } from "../support/mail.ts";

/**
 * The server log holds no public-link token, session id, reset link or answer, even for requests
 * that fail. (The global teardown checks the whole run's log the same way: tests/support/log-secrets.ts.)
 */
test("requests that carry secrets, failing or not, leave none of them in the log", async () => {
  const form = await createForm("teacher@demo.test");
  const student = await createStudent("teacher@demo.test");
  const { token } = await assign("teacher@demo.test", { formId: form.id, studentId: student.id });
  const answer = unique("private answer");

  await fetch(`${inject("baseUrl")}/en/test/${token}`);
  await fetch(`${inject("baseUrl")}/en/test/${token}.data`);
  expect((await api("GET", `/api/test-link/${token}`)).status).toBe(200);
  // Failing submits: malformed JSON, answers to unknown questions with a private text, a bad form post.
  await api("POST", `/api/test-link/${token}/submit`, { body: "{not json", headers: { "content-type": "application/json" } });
  await api("POST", `/api/test-link/${token}/submit`, { json: { answers: [{ questionId: "nope", text: answer }] } });
  await fetch(`${inject("baseUrl")}/en/test/${token}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
    body: new URLSearchParams({ "a]": answer, "__proto__.x": answer }),
  });

  // A reset link, used wrongly and then rightly.
  const email = `${unique("log-hygiene")}@demo.test`;
  const created = await api("POST", "/api/users", { as: "admin@demo.test", json: { email, name: "Log Hygiene", role: "TEACHER" } });
  expect(created.status).toBe(201);
  const seen = (await mailTo(email)).length;
  await api("POST", "/api/auth/forgot-password", { json: { email }, headers: { "x-forwarded-for": freshIp() } });
  const mail = await waitForMail(email, seen);
  const resetToken = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  await fetch(`${inject("baseUrl")}/en/reset-password?token=${resetToken}`);
  await api("POST", "/api/auth/reset-password", { json: { token: resetToken, password: "short" } });
  const password = unique("a-good-password");
  expect((await api("POST", "/api/auth/reset-password", { json: { token: resetToken, password } })).status).toBe(200);
  const session = await signIn(email, password);
  await api("GET", "/api/user/profile", { cookie: session });
  await api("GET", `/api/reports?search=${encodeURIComponent(answer)}`, { cookie: session });

  const log = readFileSync(inject("serverLog"), "utf8");
  const sessionValue = decodeURIComponent(session.split("=").slice(1).join("="));
  for (const [what, secret] of [
    ["public-link token", token],
    ["reset token", resetToken],
    ["session cookie", sessionValue],
    ["session cookie (as sent)", session.split("=").slice(1).join("=")],
    ["answer", answer],
  ] as const) {
    expect(log.includes(secret), `${what} in the server log`).toBe(false);
  }
  expect(log).toContain("path=/en/test/[redacted] status=200");
  expect(log).toContain("path=/api/test-link/[redacted]/submit status=400");
});
