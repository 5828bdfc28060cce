import { describe, expect, it } from "vitest";
import { api, type ApiResponse, unique } from "../support/api.ts";
import { type CreatedForm, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, errorPaths, expectProblem } from "../support/fixtures.ts";

/**
 * Incremental reads (docs/api-contract.md §23, ADR 52) over real HTTP: every list with `updatedSince` answers
 * exactly the items changed at or after it, oldest change first (ties by id), each with its
 * updatedAt, and the deletions since then as `{id, updatedAt, deletedAt}`; a teacher never reads
 * another teacher's items or deletions; the other filters and the pages work with it. Each test
 * has an organization of its own, so that no other file's writes are among its changes, and takes
 * its moment from an item's own updatedAt: nothing waits for the clock.
 */
type Staff = { cookie: string; id: string };
type World = { organizationId: string; admin: Staff; a: Staff; b: Staff };

async function newWorld(label: string): Promise<World> {
  const organization = await testDatabase().organization.create({ data: { name: unique(label) } });
  const staff = async (role: "ADMIN" | "TEACHER") => {
    const user = await createSignedInUser(role, { as: "superadmin@demo.test", organizationId: organization.id });
    return { cookie: user.cookie, id: user.id };
  };
  return { organizationId: organization.id, admin: await staff("ADMIN"), a: await staff("TEACHER"), b: await staff("TEACHER") };
}

async function call(who: Staff, method: string, path: string, json?: unknown): Promise<ApiResponse> {
  const response = await api(method, path, { cookie: who.cookie, ...(json === undefined ? {} : { json }) });
  expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
  return response;
}

type Item = { id: string; updatedAt: string; deletedAt: string | null; [field: string]: unknown };
type List = "forms" | "students" | "candidates" | "groups" | "submissions" | "reports";

/** The changes of `list` since `since` as `who` reads them, in one page of 100. */
async function changes(who: Staff, list: List, since: string, filters = ""): Promise<{ items: Item[]; total: number }> {
  const response = await api("GET", `/api/${list}?updatedSince=${encodeURIComponent(since)}&limit=100${filters}`, { cookie: who.cookie });
  expect(response.status, response.text).toBe(200);
  return { items: response.body[list], total: response.body.total };
}

const byChange = (a: Item, b: Item) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Exactly the items `live` (as they are now) and the deletions `deleted`, each once, oldest change
 * first, none before `since`; a deletion carries its id, updatedAt and deletedAt and nothing else.
 */
function expectChanges(answer: { items: Item[]; total: number }, since: string, expected: { live: string[]; deleted?: string[] }) {
  const { items, total } = answer;
  const deleted = expected.deleted ?? [];
  expect(items.map((item) => item.id).sort()).toEqual([...expected.live, ...deleted].sort());
  expect(total).toBe(items.length);
  expect([...items].sort(byChange).map((item) => item.id)).toEqual(items.map((item) => item.id));
  for (const item of items) {
    expect(Date.parse(item.updatedAt)).toBeGreaterThanOrEqual(Date.parse(since));
    if (deleted.includes(item.id)) {
      expect(Object.keys(item).sort()).toEqual(["deletedAt", "id", "updatedAt"]);
      expect(item.deletedAt).toBe(item.updatedAt);
    } else expect(item.deletedAt).toBeNull();
  }
}

const find = (answer: { items: Item[] }, id: string) => answer.items.find((item) => item.id === id)!;

const createForm = async (who: Staff, extra: Record<string, unknown> = {}) =>
  (await call(who, "POST", "/api/forms", { ...mixedForm(unique("Since form")), ...extra })).body as CreatedForm & { updatedAt: string };
const createStudent = async (who: Staff, name = unique("Since student")) =>
  (await call(who, "POST", "/api/students", { name })).body as { id: string; updatedAt: string };
const createCandidate = async (who: Staff) =>
  (await call(who, "POST", "/api/candidates", { name: unique("Since candidate") })).body as { id: string; updatedAt: string };
const createGroup = async (who: Staff) => (await call(who, "POST", "/api/groups", { name: unique("Since group") })).body as { id: string; updatedAt: string };
const assign = async (who: Staff, formId: string, studentId: string) =>
  (await call(who, "POST", "/api/submissions", { formId, studentId })).body as { id: string; token: string; updatedAt: string };
const submit = async (form: Parameters<typeof mediumAnswers>[0], token: string) => {
  const response = await api("POST", `/api/test-link/${token}/submit`, { json: mediumAnswers(form) });
  expect(response.status, response.text).toBe(200);
};

describe("lists read with updatedSince", () => {
  it("given forms created, edited, withdrawn as templates and deleted, should list each reader's changes and deletions, oldest first", async () => {
    const world = await newWorld("Since forms");
    const { admin, a, b } = world;
    const doomed = await createForm(a);
    const edited = await createForm(a);
    const since = edited.updatedAt;
    const template = await createForm(a, { isTemplate: true });
    const theirs = await createForm(b);
    // Its questions edited: it changes again, with its new count.
    await call(a, "PUT", `/api/forms/${edited.id}`, { questions: mixedForm().questions.slice(0, 3) });
    await call(a, "DELETE", `/api/forms/${doomed.id}`);

    const asAdmin = await changes(admin, "forms", since);
    expectChanges(asAdmin, since, { live: [template.id, theirs.id, edited.id], deleted: [doomed.id] });
    expect(find(asAdmin, edited.id)._count).toEqual({ questions: 3, submissions: 0 });
    expect(Date.parse(find(asAdmin, edited.id).updatedAt)).toBeGreaterThan(Date.parse(since));
    // Teacher a: their own and the templates; teacher b: theirs and the template, not a's private
    // forms nor their deletion.
    expectChanges(await changes(a, "forms", since), since, { live: [template.id, edited.id], deleted: [doomed.id] });
    expectChanges(await changes(b, "forms", since), since, { live: [template.id, theirs.id] });

    // A template no more leaves b's list as a deletion; its author and the administrators still read it.
    const withdrawn = (await call(a, "PUT", `/api/forms/${template.id}`, { isTemplate: false })).body as { updatedAt: string };
    expectChanges(await changes(b, "forms", withdrawn.updatedAt), withdrawn.updatedAt, { live: [], deleted: [template.id] });
    expectChanges(await changes(admin, "forms", withdrawn.updatedAt), withdrawn.updatedAt, { live: [template.id] });
    expectChanges(await changes(a, "forms", withdrawn.updatedAt), withdrawn.updatedAt, { live: [template.id] });
    // A template deleted: everyone who read it is told.
    const shared = await createForm(b, { isTemplate: true });
    await call(b, "DELETE", `/api/forms/${shared.id}`);
    expectChanges(await changes(a, "forms", shared.updatedAt), shared.updatedAt, { live: [], deleted: [shared.id] });

    // The other filters apply to the items, not to the deletions (which no longer have the values).
    expectChanges(await changes(admin, "forms", since, "&isTemplate=false"), since, {
      live: [theirs.id, edited.id, template.id],
      // The template's withdrawal is not a deletion for the administrators.
      deleted: [doomed.id, shared.id],
    });
  });

  it("given students created, changed, moved between groups and deleted, should list the changes and deletions to every staff member, and nothing of another organization", async () => {
    const { admin, a, b } = await newWorld("Since students");
    const other = await newWorld("Since students elsewhere");
    const doomed = await createStudent(admin);
    const joining = await createStudent(admin);
    const leaving = await createStudent(admin);
    const group = await createGroup(a);
    await call(a, "POST", `/api/groups/${group.id}/members`, { studentIds: [leaving.id] });
    const first = await createStudent(admin);
    const since = first.updatedAt;
    const added = await createStudent(a);
    const elsewhere = await createStudent(other.admin);
    await call(b, "PUT", `/api/students/${first.id}`, { grade: "6A" });
    // A person's groups changed: the person changed (the lists filtered by group select by them).
    await call(a, "POST", `/api/groups/${group.id}/members`, { studentIds: [joining.id] });
    await call(a, "DELETE", `/api/groups/${group.id}/members`, { studentIds: [leaving.id] });
    await call(admin, "DELETE", `/api/students/${doomed.id}`);

    const expected = { live: [added.id, first.id, joining.id, leaving.id], deleted: [doomed.id] };
    for (const who of [admin, a, b]) expectChanges(await changes(who, "students", since), since, expected);
    const all = await changes(admin, "students", since);
    expect(find(all, first.id)).toMatchObject({ grade: "6A" });
    expect(Date.parse(find(all, joining.id).updatedAt)).toBeGreaterThan(Date.parse(since));
    // The group's members changed since: the one who joined (and the deletion, whatever the filter).
    expectChanges(await changes(a, "students", since, `&groupId=${group.id}`), since, { live: [joining.id], deleted: [doomed.id] });
    expectChanges(await changes(other.admin, "students", since), since, { live: [elsewhere.id] });
  });

  it("given candidates created, promoted and deleted, should list the candidates' changes and the promoted student among the students'", async () => {
    const { admin, a } = await newWorld("Since candidates");
    const doomed = await createCandidate(a);
    const promoted = await createCandidate(a);
    const first = await createCandidate(a);
    const since = first.updatedAt;
    const added = await createCandidate(a);
    const promotion = (await call(admin, "POST", `/api/candidates/${promoted.id}/promote`)).body as { student: { id: string } };
    await call(admin, "DELETE", `/api/candidates/${doomed.id}`);

    const answer = await changes(a, "candidates", since);
    expectChanges(answer, since, { live: [first.id, added.id, promoted.id], deleted: [doomed.id] });
    expect(find(answer, promoted.id)).toMatchObject({ status: "PROMOTED", promotedStudentId: promotion.student.id });
    expectChanges(await changes(a, "candidates", since, "&status=PROMOTED"), since, { live: [promoted.id], deleted: [doomed.id] });
    expectChanges(await changes(a, "students", since), since, { live: [promotion.student.id] });
  });

  it("given groups created, renamed, with members added and deleted, and deleted, should list the changes and deletions", async () => {
    const { admin, a, b } = await newWorld("Since groups");
    const student = await createStudent(a);
    const leaver = await createStudent(a);
    const doomed = await createGroup(a);
    const filled = await createGroup(a);
    const emptied = await createGroup(b);
    await call(b, "POST", `/api/groups/${emptied.id}/members`, { studentIds: [leaver.id] });
    const untouched = await createGroup(a);
    const since = untouched.updatedAt;
    const renamed = await createGroup(b);
    await call(b, "PUT", `/api/groups/${renamed.id}`, { name: unique("Renamed group") });
    await call(a, "POST", `/api/groups/${filled.id}/members`, { studentIds: [student.id] });
    // A member deleted: the group's members changed.
    await call(admin, "DELETE", `/api/students/${leaver.id}`);
    await call(a, "DELETE", `/api/groups/${doomed.id}`);

    for (const who of [admin, a, b]) {
      const answer = await changes(who, "groups", since);
      // `untouched` changed at the moment itself: "at or after" includes it.
      expectChanges(answer, since, { live: [untouched.id, renamed.id, filled.id, emptied.id], deleted: [doomed.id] });
      expect(find(answer, filled.id)._count).toEqual({ members: 1 });
      expect(find(answer, emptied.id)._count).toEqual({ members: 0 });
    }
  });

  it("given links assigned, withdrawn and completed, should list each teacher's own and the administrators' all, with the other filters", async () => {
    const { admin, a, b } = await newWorld("Since submissions");
    const form = await createForm(a);
    const theirForm = await createForm(b);
    const student = await createStudent(a);
    const withdrawn = await assign(a, form.id, student.id);
    const other = await createStudent(a);
    const completed = await assign(a, form.id, other.id);
    const since = completed.updatedAt;
    const theirs = await assign(b, theirForm.id, student.id);
    await call(a, "POST", `/api/submissions/${withdrawn.id}/revoke`);
    const later = await assign(a, form.id, (await createStudent(a)).id);
    await submit(form, completed.token);

    const asAdmin = await changes(admin, "submissions", since);
    expectChanges(asAdmin, since, { live: [theirs.id, withdrawn.id, later.id, completed.id] });
    expect(find(asAdmin, withdrawn.id)).toMatchObject({ status: "REVOKED" });
    expect(find(asAdmin, completed.id)).toMatchObject({ status: "COMPLETED", scoreLabel: "Medium" });
    expect(Date.parse(find(asAdmin, completed.id).updatedAt)).toBeGreaterThan(Date.parse(since));
    expectChanges(await changes(a, "submissions", since), since, { live: [withdrawn.id, later.id, completed.id] });
    expectChanges(await changes(b, "submissions", since), since, { live: [theirs.id] });
    expectChanges(await changes(a, "submissions", since, "&isCompleted=true"), since, { live: [completed.id] });
    expectChanges(await changes(admin, "submissions", since, `&formId=${form.id}&status=PENDING`), since, { live: [later.id] });
    // A student's own login reads its own tests' changes, and no deletion.
    const own = await api("GET", "/api/submissions?updatedSince=2020-01-01T00:00:00Z&limit=100", { as: "student@demo.test" });
    expect(own.status).toBe(200);
    for (const item of own.body.submissions as Item[]) expect(item).toMatchObject({ deletedAt: null, updatedAt: expect.any(String) });
  });

  it("given results completed and a respondent renamed, should list the reports each reader may see that changed, with the name they show now", async () => {
    const { admin, a, b } = await newWorld("Since reports");
    const form = await createForm(a);
    const theirForm = await createForm(b);
    const renamed = await createStudent(a);
    const earlier = await assign(a, form.id, renamed.id);
    await submit(form, earlier.token);
    const pending = await assign(a, form.id, (await createStudent(a)).id);
    const since = pending.updatedAt;
    const mine = await assign(a, form.id, (await createStudent(a)).id);
    const theirs = await assign(b, theirForm.id, (await createStudent(b)).id);
    await submit(form, mine.token);
    await submit(theirForm, theirs.token);
    const name = unique("Renamed respondent");
    await call(a, "PUT", `/api/students/${renamed.id}`, { name });

    const asAdmin = await changes(admin, "reports", since);
    expectChanges(asAdmin, since, { live: [mine.id, theirs.id, earlier.id] });
    expect(find(asAdmin, earlier.id)).toMatchObject({ studentName: name, scoreLabel: "Medium" });
    expectChanges(await changes(a, "reports", since), since, { live: [mine.id, earlier.id] });
    expectChanges(await changes(b, "reports", since), since, { live: [theirs.id] });
    expectChanges(await changes(admin, "reports", since, `&search=${encodeURIComponent(name)}`), since, { live: [earlier.id] });
    expectChanges(await changes(admin, "reports", since, `&formId=${theirForm.id}`), since, { live: [theirs.id] });
    // The same moment written with another offset is the same moment.
    const shifted = new Date(Date.parse(since) + 2 * 3_600_000).toISOString().replace("Z", "+02:00");
    expectChanges(await changes(admin, "reports", shifted), since, { live: [mine.id, theirs.id, earlier.id] });
  });

  it("given changes and deletions interleaved, should page through them with page numbers, and from the last item's updatedAt", async () => {
    const { admin } = await newWorld("Since pages");
    const students = [];
    for (let i = 0; i < 7; i += 1) students.push(await createStudent(admin));
    const since = students[0]!.updatedAt;
    for (const index of [1, 4]) await call(admin, "DELETE", `/api/students/${students[index]!.id}`);
    await call(admin, "PUT", `/api/students/${students[2]!.id}`, { grade: "7" });
    const whole = await changes(admin, "students", since);
    expect(whole.items).toHaveLength(7);

    const paged: Item[] = [];
    for (let page = 1; page <= 4; page += 1) {
      const response = await api("GET", `/api/students?updatedSince=${encodeURIComponent(since)}&limit=2&page=${page}`, { cookie: admin.cookie });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ total: 7, page, limit: 2 });
      paged.push(...response.body.students);
    }
    expect(paged).toEqual(whole.items);

    // From the last item's updatedAt: it comes again (with anything else of that moment), then the rest.
    const seen = new Map<string, Item>();
    let from = since;
    for (let reads = 0; reads < 10 && seen.size < whole.items.length; reads += 1) {
      const response = await api("GET", `/api/students?updatedSince=${encodeURIComponent(from)}&limit=3`, { cookie: admin.cookie });
      const items = response.body.students as Item[];
      for (const item of items) seen.set(item.id, item);
      from = items.at(-1)!.updatedAt;
    }
    expect([...seen.values()].sort(byChange)).toEqual(whole.items);
  });

  it.each(["forms", "students", "candidates", "groups", "submissions", "reports"] as const)(
    "given an updatedSince that is not a date-time with its offset, should answer 400 naming it on /api/%s",
    async (list) => {
      for (const value of ["yesterday", "2026-03-14", "2026-03-14T09:30:00", "2026-13-01T09:30:00Z", "2026-03-14T25:30:00Z", ""]) {
        const response = await api("GET", `/api/${list}?updatedSince=${encodeURIComponent(value)}`, { as: "admin@demo.test" });
        expectProblem(response, 400, "VALIDATION_FAILED");
        expect(errorPaths(response), value).toEqual(["updatedSince"]);
      }
      const twice = await api("GET", `/api/${list}?updatedSince=2026-03-14T09:30:00Z&updatedSince=2026-03-15T09:30:00Z`, { as: "admin@demo.test" });
      expectProblem(twice, 400, "VALIDATION_FAILED");
      expect((await api("GET", `/api/${list}?updatedSince=2026-03-14T09:30:00.000%2B01:00`, { as: "admin@demo.test" })).status).toBe(200);
    },
  );
});
