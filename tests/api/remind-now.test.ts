import { describe, expect, it } from "vitest";
import { api, unique } from "../support/api.ts";
import { createForm, mediumAnswers } from "../support/assessment.ts";
import { mailTo, waitForMail } from "../support/mail.ts";
import { waitFor } from "../support/wait.ts";

/**
 * "Remind now" over real HTTP: one reminder to each respondent of a form still waiting
 * who has an address, through the job queue and the loopback SMTP server; never twice within 10
 * minutes; nothing outside the caller's scope.
 */
async function classWithLinks() {
  const tag = unique("remind");
  const person = async (name: string, email?: string) =>
    (await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: `${name} ${tag}`, ...(email ? { email } : {}) } })).body as { id: string };
  const answered = await person("Answered", `${unique("a").toLowerCase()}@pupils.test`);
  const waitingEmail = `${unique("w").toLowerCase()}@pupils.test`;
  const waiting = await person("Waiting", waitingEmail);
  const silent = await person("Silent");
  const group = await api("POST", "/api/groups", { as: "teacher@demo.test", json: { name: `Class ${tag}` } });
  await api("POST", `/api/groups/${group.body.id}/members`, { as: "teacher@demo.test", json: { studentIds: [answered.id, waiting.id, silent.id] } });
  const form = await createForm("teacher@demo.test");
  const bulk = await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: form.id, groupId: group.body.id } });
  expect(bulk.status).toBe(201);
  const linkOf = (id: string) => bulk.body.created.find((s: { student: { id: string } }) => s.student.id === id);
  const submit = await api("POST", `/api/test-link/${linkOf(answered.id).token}/submit`, { json: mediumAnswers(form) });
  expect(submit.status).toBe(200);
  return { form, groupId: group.body.id as string, waitingEmail, waitingLink: linkOf(waiting.id) };
}

describe("POST /api/submissions/remind", () => {
  it("given a group's form, should remind only the one still waiting with an address, count the one without, and not twice within 10 minutes", async () => {
    const { form, groupId, waitingEmail, waitingLink } = await classWithLinks();
    const reminded = await api("POST", "/api/submissions/remind", { as: "teacher@demo.test", json: { formId: form.id, groupId } });
    expect(reminded.status).toBe(202);
    expect(reminded.body).toEqual({ queued: 1, noEmail: 1, recentlySent: 0 });
    const mail = await waitForMail(waitingEmail);
    expect(mail.subject).toBe(`Reminder: ${form.title} is waiting for your answers`);
    expect(mail.text).toContain(`/en/test/${waitingLink.token}`);

    const again = await api("POST", "/api/submissions/remind", { as: "teacher@demo.test", json: { formId: form.id } });
    expect(again.body).toEqual({ queued: 0, noEmail: 1, recentlySent: 1 });
    expect(await mailTo(waitingEmail)).toHaveLength(1);
    // Stamped once the mail server has accepted the reminder, just after it arrived.
    await waitFor(
      async () => (await api("GET", `/api/submissions/${waitingLink.id}`, { as: "teacher@demo.test" })).body.remindedAt,
      (remindedAt) => remindedAt !== null,
      "the reminder to be stamped",
      { timeoutMs: 10_000 },
    );
  });

  it("given a form or a group the caller cannot see, should answer 404; a student 403; a body without a form 400", async () => {
    const { form, groupId } = await classWithLinks();
    const theirs = await createForm("teacher@other.test");
    expect((await api("POST", "/api/submissions/remind", { as: "teacher@demo.test", json: { formId: theirs.id } })).status).toBe(404);
    expect((await api("POST", "/api/submissions/remind", { as: "teacher@other.test", json: { formId: form.id } })).status).toBe(404);
    expect((await api("POST", "/api/submissions/remind", { as: "teacher@other.test", json: { formId: theirs.id, groupId } })).status).toBe(404);
    // A colleague sees neither the form nor its links.
    expect((await api("POST", "/api/submissions/remind", { as: "teacher2@demo.test", json: { formId: form.id } })).status).toBe(404);
    expect((await api("POST", "/api/submissions/remind", { as: "student@demo.test", json: { formId: form.id } })).status).toBe(403);
    const missing = await api("POST", "/api/submissions/remind", { as: "teacher@demo.test", json: { groupId } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: "formId" })]);
  });
});
