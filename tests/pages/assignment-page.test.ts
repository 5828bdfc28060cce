import { describe, expect, it } from "vitest";
import { api, baseUrl, postPageForm, sessionOf, unique } from "../support/api.ts";
import { assign, createForm, createStudent } from "../support/assessment.ts";
import { waitForMail } from "../support/mail.ts";

/** The assignment page's link controls over plain HTTP: change the expiry, withdraw the link. */
const teacher = () => sessionOf("teacher@demo.test");

const post = (path: string, fields: Record<string, string>, session = teacher()) => postPageForm(path, fields, session);

async function newAssignment() {
  const form = await createForm("teacher@demo.test");
  const student = await createStudent("teacher@demo.test", unique("Page respondent"));
  return assign("teacher@demo.test", { formId: form.id, studentId: student.id });
}

describe("the assignment page's link controls", () => {
  it("given a new last day, should set the link to the end of that day and redirect with a message", async () => {
    const assignment = await newAssignment();
    const day = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const response = await post(`/en/assignments/${assignment.id}`, { intent: "extend", expiresAt: day });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/en/assignments/${assignment.id}`);
    expect((await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" })).body.expiresAt).toBe(`${day}T23:59:59.999Z`);
    // Left empty: no expiry.
    await post(`/en/assignments/${assignment.id}`, { intent: "extend", expiresAt: "" });
    expect((await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" })).body.expiresAt).toBeNull();
  });

  it("given a day in the past, should say so next to the field in the page's language", async () => {
    const assignment = await newAssignment();
    const response = await post(`/es/assignments/${assignment.id}`, { intent: "extend", expiresAt: "2020-01-01" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Elige una fecha futura.");
  });

  it("given a withdrawal, should revoke the link and show it withdrawn, without the controls", async () => {
    const assignment = await newAssignment();
    const response = await post(`/en/assignments/${assignment.id}`, { intent: "revoke" });
    expect(response.status).toBe(302);
    expect((await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" })).body.status).toBe("REVOKED");
    const page = await (await fetch(`${baseUrl()}/en/assignments/${assignment.id}`, { headers: { cookie: teacher() } })).text();
    expect(page).toContain("Withdrawn");
    expect(page).not.toContain("Save the expiry");
    // Withdrawing again, or changing the expiry now, just shows the page as it is.
    expect((await post(`/en/assignments/${assignment.id}`, { intent: "extend", expiresAt: "" })).status).toBe(302);
  });

  it("given a colleague's assignment, should answer the 404 page and change nothing", async () => {
    const assignment = await newAssignment();
    const response = await post(`/en/assignments/${assignment.id}`, { intent: "revoke" }, sessionOf("teacher2@demo.test"));
    expect(response.status).toBe(404);
    expect((await api("GET", `/api/submissions/${assignment.id}`, { as: "teacher@demo.test" })).body.status).toBe("PENDING");
  });

  it("given the e-mail buttons, should queue the link for a respondent with an address, and say why not for one without", async () => {
    const form = await createForm("teacher@demo.test");
    const email = `${unique("page").toLowerCase()}@pupils.test`;
    const withAddress = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: "Paula Page", email } });
    const link = await assign("teacher@demo.test", { formId: form.id, studentId: withAddress.body.id });
    const sent = await post(`/en/assignments/${link.id}`, { intent: "send" });
    expect(sent.status).toBe(302);
    const mail = await waitForMail(email);
    expect(mail.text).toContain(link.token);
    // Again at once: too soon, said as a message on the page.
    await expect.poll(async () => (await api("GET", `/api/submissions/${link.id}`, { as: "teacher@demo.test" })).body.sendCount).toBe(1);
    const again = await post(`/en/assignments/${link.id}`, { intent: "send" });
    expect(again.status).toBe(302);
    expect(again.headers.getSetCookie().some((cookie) => cookie.startsWith("flash="))).toBe(true);

    const silent = await newAssignment();
    const refused = await post(`/en/assignments/${silent.id}`, { intent: "send" });
    expect(refused.status).toBe(302);
    const page = await (
      await fetch(`${baseUrl()}${refused.headers.get("location")}`, {
        headers: { cookie: `${teacher()}; ${refused.headers.getSetCookie()[0]!.split(";")[0]}` },
      })
    ).text();
    expect(page).toContain("This person has no e-mail address: give one on their page first.");
  });
});
