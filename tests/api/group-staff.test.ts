import { beforeAll, describe, expect, it } from "vitest";
import { api, baseUrl, type DemoUser, sessionOf, unique, withCsrf } from "../support/api.ts";
import { type CreatedForm, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { type CreatedUser, createSignedInUser, errorPaths, expectProblem } from "../support/fixtures.ts";

/**
 * A group's staff over real HTTP (docs/api-contract.md §19, ADR 86): the staff API, and every read
 * path as seen by the group's owner, editor and viewer, an unrelated teacher, an administrator and
 * another organization.
 */

type Caller = { cookie: string } | { as: DemoUser };
const by = (caller: Caller) => ("cookie" in caller ? { cookie: caller.cookie } : { as: caller.as });

let owner: CreatedUser;
let editor: CreatedUser;
let viewer: CreatedUser;
let unrelated: CreatedUser;
let groupId: string;
let formId: string;
let member: { id: string; name: string };
/** A result of a link given to the group. */
let groupResult: string;
/** A member's result assigned by the editor, one by one (not to the group). */
let staffResult: string;
/** A member's result assigned by a teacher outside the group. */
let outsideResult: string;

async function post(caller: Caller, path: string, json: unknown, status = 201) {
  const response = await api("POST", path, { ...by(caller), json });
  expect(response.status, response.text).toBe(status);
  return response.body;
}

async function complete(token: string, form: CreatedForm) {
  const submit = await api("POST", `/api/test-link/${token}/submit`, { json: mediumAnswers(form) });
  expect(submit.status, submit.text).toBe(200);
}

beforeAll(async () => {
  [owner, editor, viewer, unrelated] = await Promise.all([
    createSignedInUser("TEACHER"),
    createSignedInUser("TEACHER"),
    createSignedInUser("TEACHER"),
    createSignedInUser("TEACHER"),
  ]);
  const group = await post(owner, "/api/groups", { name: unique("Shared class") });
  groupId = group.id;
  member = await post(owner, "/api/students", { name: unique("Member") });
  const other = await post(owner, "/api/students", { name: unique("Member two") });
  await post(owner, `/api/groups/${groupId}/members`, { studentIds: [member.id, other.id] }, 200);
  const put = await api("PUT", `/api/groups/${groupId}/staff`, {
    cookie: owner.cookie,
    json: {
      staff: [
        { userId: owner.id, role: "OWNER" },
        { userId: editor.id, role: "EDITOR" },
        { userId: viewer.id, role: "VIEWER" },
      ],
    },
  });
  expect(put.status, put.text).toBe(200);

  const form = await post(owner, "/api/forms", mixedForm());
  formId = form.id;
  const bulk = await post(owner, "/api/submissions/bulk", { formId, groupId });
  const link = bulk.created.find((item: { student: { id: string } }) => item.student.id === member.id);
  await complete(link.token, form);
  groupResult = link.id;

  const editorForm = await post(editor, "/api/forms", mixedForm());
  const editorLink = await post(editor, "/api/submissions", { formId: editorForm.id, studentId: member.id });
  await complete(editorLink.token, editorForm);
  staffResult = editorLink.id;

  const outsideForm = await post(unrelated, "/api/forms", mixedForm());
  const outsideLink = await post(unrelated, "/api/submissions", { formId: outsideForm.id, studentId: member.id });
  await complete(outsideLink.token, outsideForm);
  outsideResult = outsideLink.id;
});

describe("GET and PUT /api/groups/:id/staff", () => {
  it("given a new group, should make its creator the first owner", async () => {
    const group = await post(editor, "/api/groups", { name: unique("Caseload") });
    const staff = await api("GET", `/api/groups/${group.id}/staff`, { cookie: unrelated.cookie });
    expect(staff.status).toBe(200);
    expect(staff.body).toEqual({ staff: [{ userId: editor.id, name: editor.profile.name, role: "OWNER" }] });
  });

  it("given the staff, should list it owners first to every colleague, and 404 to another organization", async () => {
    const staff = await api("GET", `/api/groups/${groupId}/staff`, { as: "teacher@demo.test" });
    expect(staff.body.staff.map((entry: { userId: string; role: string }) => [entry.userId, entry.role])).toEqual([
      [owner.id, "OWNER"],
      [editor.id, "EDITOR"],
      [viewer.id, "VIEWER"],
    ]);
    expectProblem(await api("GET", `/api/groups/${groupId}/staff`, { as: "teacher@other.test" }), 404);
    expectProblem(await api("PUT", `/api/groups/${groupId}/staff`, { as: "admin@other.test", json: { staff: [] } }), 404);
  });

  it("given an editor, a viewer or another teacher, should refuse to change the staff (403); an administrator may", async () => {
    const body = { staff: [{ userId: owner.id, role: "OWNER" }] };
    for (const caller of [editor, viewer, unrelated]) {
      expectProblem(await api("PUT", `/api/groups/${groupId}/staff`, { cookie: caller.cookie, json: body }), 403);
    }
    const group = await post(owner, "/api/groups", { name: unique("Admin's change") });
    const changed = await api("PUT", `/api/groups/${group.id}/staff`, {
      as: "admin@demo.test",
      json: { staff: [{ userId: editor.id, role: "OWNER" }] },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.staff).toEqual([{ userId: editor.id, name: editor.profile.name, role: "OWNER" }]);
  });

  it("given a student, a user of another organization, a repeated entry or no owner, should refuse it naming the entry", async () => {
    const student = await createSignedInUser("STUDENT");
    const otherTeacher = await api("GET", "/api/user/profile", { as: "teacher@other.test" });
    const refused = await api("PUT", `/api/groups/${groupId}/staff`, {
      cookie: owner.cookie,
      json: {
        staff: [
          { userId: owner.id, role: "OWNER" },
          { userId: student.id, role: "VIEWER" },
          { userId: otherTeacher.body.id, role: "EDITOR" },
        ],
      },
    });
    expectProblem(refused, 400);
    expect(errorPaths(refused)).toEqual(["staff.1.userId", "staff.2.userId"]);
    const twice = await api("PUT", `/api/groups/${groupId}/staff`, {
      cookie: owner.cookie,
      json: {
        staff: [
          { userId: owner.id, role: "OWNER" },
          { userId: owner.id, role: "VIEWER" },
        ],
      },
    });
    expectProblem(twice, 400);
    expect(errorPaths(twice)).toEqual(["staff.1.userId"]);
    expectProblem(
      await api("PUT", `/api/groups/${groupId}/staff`, { cookie: owner.cookie, json: { staff: [{ userId: owner.id, role: "EDITOR" }] } }),
      409,
      "LAST_OWNER",
    );
    // Nothing changed.
    expect((await api("GET", `/api/groups/${groupId}/staff`, { cookie: owner.cookie })).body.staff).toHaveLength(3);
  });
});

const callers = (): [string, Caller, { group: boolean; staff: boolean; outside: boolean }][] => [
  ["owner", owner, { group: true, staff: true, outside: false }],
  ["editor", editor, { group: true, staff: true, outside: false }],
  ["viewer", viewer, { group: true, staff: true, outside: false }],
  ["unrelated teacher", unrelated, { group: false, staff: false, outside: true }],
  ["admin", { as: "admin@demo.test" }, { group: true, staff: true, outside: true }],
  ["another organization", { as: "admin@other.test" }, { group: false, staff: false, outside: false }],
];

describe("what the group's staff see", () => {
  it("given each caller, should show the group's results on every read path, and never a member's result assigned outside the group", async () => {
    for (const [who, caller, sees] of callers()) {
      const expected = [
        [groupResult, sees.group],
        [staffResult, sees.staff],
        [outsideResult, sees.outside],
      ] as const;
      for (const [id, visible] of expected) {
        expect((await api("GET", `/api/reports/${id}`, by(caller))).status, `${who} GET /api/reports/${id}`).toBe(visible ? 200 : 404);
        const pdf = await fetch(`${baseUrl()}/api/reports/export`, {
          method: "POST",
          headers: { "content-type": "application/json", ...withCsrf("cookie" in caller ? caller.cookie : sessionOf(caller.as)) },
          body: JSON.stringify({ submissionId: id }),
        });
        expect(pdf.status, `${who} PDF`).toBe(visible ? 200 : 404);
      }
      const list = await api("GET", `/api/reports?limit=100&search=${encodeURIComponent(member.name)}`, by(caller));
      const listed = new Set((list.body.reports ?? []).map((report: { id: string }) => report.id));
      expect(
        [groupResult, staffResult, outsideResult].map((id) => listed.has(id)),
        `${who} list`,
      ).toEqual([sees.group, sees.staff, sees.outside]);
      if (list.status === 200) expect(list.body.total, `${who} total`).toBe(listed.size);

      const exported = await api("GET", `/api/reports/export?format=csv&formId=${formId}`, by(caller));
      expect(exported.status, `${who} export`).toBe(sees.group ? 200 : 404);
      if (sees.group) expect(exported.text, `${who} export`).toContain(member.name);

      const summary = await api("GET", `/api/forms/${formId}/summary`, by(caller));
      expect(summary.status, `${who} summary`).toBe(sees.group ? 200 : 404);
      if (sees.group) expect(summary.body.completed, `${who} summary`).toBe(1);

      const person = await api("GET", `/api/students/${member.id}`, by(caller));
      if (who === "another organization") expect(person.status).toBe(404);
      else {
        const history = new Set((person.body.submissions ?? []).map((item: { id: string }) => item.id));
        expect(
          [groupResult, staffResult, outsideResult].map((id) => history.has(id)),
          `${who} history`,
        ).toEqual([sees.group, sees.staff, sees.outside]);
      }

      const group = await api("GET", `/api/groups/${groupId}`, by(caller));
      expect(group.status, `${who} group`).toBe(who === "another organization" ? 404 : 200);
    }
  });
});

describe("what the group's staff see on the pages", () => {
  const page = async (caller: Caller, path: string) => {
    const cookie = "cookie" in caller ? caller.cookie : sessionOf(caller.as);
    const response = await fetch(`${baseUrl()}${path}`, { headers: { cookie }, redirect: "manual" });
    return { status: response.status, html: await response.text() };
  };
  const linksTo = (html: string, id: string) => html.includes(`href="/en/reports/${id}"`);

  it("given each caller, should show on the home page, the reports page, the person's page and the report's page exactly what the API shows", async () => {
    const results = [groupResult, staffResult, outsideResult];
    for (const [who, caller, sees] of callers()) {
      const visible = [sees.group, sees.staff, sees.outside];
      for (const [index, id] of results.entries()) {
        expect((await page(caller, `/en/reports/${id}`)).status, `${who} report page ${index}`).toBe(visible[index] ? 200 : 404);
        expect((await page(caller, `/en/reports/${id}/pdf`)).status, `${who} PDF page ${index}`).toBe(visible[index] ? 200 : 404);
      }
      const reports = await page(caller, `/en/reports?search=${encodeURIComponent(member.name)}`);
      expect(
        results.map((id) => linksTo(reports.html, id)),
        `${who} reports page`,
      ).toEqual(visible);

      const person = await page(caller, `/en/students/${member.id}`);
      if (who === "another organization") expect(person.status).toBe(404);
      else
        expect(
          results.map((id) => linksTo(person.html, id)),
          `${who} person page`,
        ).toEqual(visible);

      const summary = await page(caller, `/en/forms/${formId}/summary`);
      expect(summary.status, `${who} summary page`).toBe(sees.group ? 200 : 404);

      // The home page lists the latest ten results in the caller's scope. A teacher's scope here
      // holds at most these three; the demo organization's administrator sees every other test's
      // results too, so their latest ten need not include these (the reports page above shows them).
      if (who !== "admin") {
        const home = await page(caller, "/en/home");
        expect(home.status).toBe(200);
        expect(
          results.map((id) => linksTo(home.html, id)),
          `${who} home page`,
        ).toEqual(visible);
      }
    }
  });
});

describe("what the group's staff may change", () => {
  it("given a viewer, should refuse assigning to the group, reminding and changing its links (403); an editor may", async () => {
    const viewerForm = await post(viewer, "/api/forms", mixedForm());
    expectProblem(await api("POST", "/api/submissions/bulk", { cookie: viewer.cookie, json: { formId: viewerForm.id, groupId } }), 403);
    const editorForm = await post(editor, "/api/forms", mixedForm());
    const bulk = await post(editor, "/api/submissions/bulk", { formId: editorForm.id, groupId });
    const link = bulk.created[0];
    const later = new Date(Date.now() + 30 * 86_400_000).toISOString();
    expectProblem(await api("PUT", `/api/submissions/${link.id}`, { cookie: viewer.cookie, json: { expiresAt: later } }), 403);
    expectProblem(await api("POST", `/api/submissions/${link.id}/revoke`, { cookie: viewer.cookie }), 403);
    expectProblem(await api("POST", `/api/submissions/${link.id}/send`, { cookie: viewer.cookie }), 403);
    expectProblem(await api("POST", "/api/submissions/remind", { cookie: viewer.cookie, json: { formId: editorForm.id, groupId } }), 403);
    expectProblem(await api("POST", `/api/groups/${groupId}/members`, { cookie: viewer.cookie, json: { studentIds: [member.id] } }), 403);
    expectProblem(await api("DELETE", `/api/groups/${groupId}`, { cookie: viewer.cookie }), 403);
    expectProblem(await api("POST", `/api/submissions/${link.id}/revoke`, { cookie: unrelated.cookie }), 404);
    expect((await api("PUT", `/api/submissions/${link.id}`, { cookie: owner.cookie, json: { expiresAt: later } })).status).toBe(200);
    expect((await api("POST", `/api/submissions/${link.id}/revoke`, { cookie: owner.cookie })).status).toBe(200);
    expectProblem(await api("PUT", `/api/groups/${groupId}`, { cookie: viewer.cookie, json: { name: unique("Renamed") } }), 403);
    expect((await api("PUT", `/api/groups/${groupId}`, { cookie: editor.cookie, json: { description: "Shared" } })).status).toBe(200);
  });

  it("given the staff changed, should take effect on the next request", async () => {
    const put = (staff: unknown) => api("PUT", `/api/groups/${groupId}/staff`, { cookie: owner.cookie, json: { staff } });
    const all = [
      { userId: owner.id, role: "OWNER" },
      { userId: editor.id, role: "EDITOR" },
      { userId: viewer.id, role: "VIEWER" },
    ];
    expect((await put(all.slice(0, 2))).status).toBe(200);
    expect((await api("GET", `/api/reports/${groupResult}`, { cookie: viewer.cookie })).status).toBe(404);
    expect((await put(all)).status).toBe(200);
    expect((await api("GET", `/api/reports/${groupResult}`, { cookie: viewer.cookie })).status).toBe(200);
  });
});
