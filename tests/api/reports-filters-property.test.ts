import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { foldForSearch, submissionSearchText } from "../../app/lib/search.ts";
import { api, type ApiResponse, freshIp, unique } from "../support/api.ts";
import { type CreatedForm, highAnswers, mediumAnswers, mixedForm, negativeAnswers } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser } from "../support/fixtures.ts";

/**
 * The reports list's `total` is the number of its rows, whatever the filters (docs/api-contract.md §6, ADR 13,
 * ADR 36, docs/decisions/0056-totals-from-every-filter.md). Over real HTTP, for random combinations
 * of every filter of GET /api/reports (search, from, to, formId, groupId, flagged, updatedSince) with a
 * random page, as an administrator and as each of two teachers: the page's `total` equals the rows
 * read by paging through the whole list with the same filters, those rows are exactly the ones the
 * filters select in this file's own account of the data, and the page is their slice. Now and then
 * a change comes first (a new completed result, a member joining or leaving a group, a flagged
 * result acknowledged) and the same list is read again. The totals go by every path the service has (the submission counts, the cache
 * of totals, a count every time, the search plans that count their own rows).
 *
 * A small organization of its own (time zone Asia/Kolkata, +05:30, so that date-only bounds are
 * not UTC days), so that no other file's writes change what it counts. Its results were completed
 * at instants set in the database, some a millisecond either side of a local midnight.
 */

const ZONE = "Asia/Kolkata";
const ZONE_OFFSET = "+05:30";

type Caller = "admin" | "a" | "b";
type Staff = { id: string; cookie: string };
type Respondent = { kind: "student" | "candidate"; id: string; name: string };
type Result = {
  id: string;
  assignedBy: Caller;
  formId: string;
  formTitle: string;
  respondent: Respondent;
  completedAt: number;
  updatedAt: number;
  flagged: boolean;
  acknowledged: boolean;
};
type Flagged = "true" | "unacknowledged";
type Filter = { search?: string; from?: string; to?: string; formId?: string; groupId?: string; flagged?: Flagged; updatedSince?: string };
type Change =
  | { kind: "result"; by: Caller; form: number; respondent: number; answers: number }
  | { kind: "member"; group: number; respondent: number }
  | { kind: "acknowledge"; result: number };
type Run = { caller: Caller; filter: Filter; page: number; limit: number; change: Change | null };
type Item = { id: string; completedAt: string; updatedAt: string; studentName: string; formTitle: string };

const staff = {} as Record<Caller, Staff>;
let forms: { owner: Caller; form: CreatedForm; isTemplate: boolean; critical: boolean }[] = [];
let respondents: Respondent[] = [];
let groups: { id: string; members: Set<string> }[] = [];
const results: Result[] = [];
/** A group that no longer exists: the list answers 404 for it. */
let deletedGroupId = "";

const key = (respondent: Respondent) => `${respondent.kind}:${respondent.id}`;

async function call(as: Caller, method: string, path: string, json?: unknown, headers?: Record<string, string>): Promise<ApiResponse> {
  const response = await api(method, path, { cookie: staff[as].cookie, ...(json === undefined ? {} : { json }), ...(headers ? { headers } : {}) });
  expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
  return response;
}

/** Forms `who` may assign: their own and the templates; an administrator every form. */
const assignable = (who: Caller) => forms.filter((entry) => who === "admin" || entry.owner === who || entry.isTemplate);

/** A completed result of `form` for `respondent`, assigned by `by`; its completedAt is now unless given (then set in the database). */
async function complete(by: Caller, form: CreatedForm, respondent: Respondent, answers: number, completedAt?: Date): Promise<void> {
  const person = respondent.kind === "student" ? { studentId: respondent.id } : { candidateId: respondent.id };
  const assigned = await call(by, "POST", "/api/submissions", { formId: form.id, ...person });
  const body = [mediumAnswers, highAnswers, negativeAnswers][answers % 3]!(form);
  const submitted = await api("POST", `/api/test-link/${assigned.body.token}/submit`, { json: body, headers: { "x-forwarded-for": freshIp() } });
  expect(submitted.status, submitted.text).toBe(200);
  // The medium and negative answers pick the first question's "B", critical on a critical form (its flaggedAt is its completion).
  const flagged = Boolean(forms.find((entry) => entry.form.id === form.id)?.critical) && answers % 3 !== 1;
  if (completedAt)
    await testDatabase().submission.update({ where: { id: assigned.body.id }, data: { completedAt, ...(flagged ? { flaggedAt: completedAt } : {}) } });
  results.push({
    id: assigned.body.id,
    assignedBy: by,
    formId: form.id,
    formTitle: form.title,
    respondent,
    completedAt: (completedAt ?? new Date(submitted.body.completedAt)).getTime(),
    updatedAt: 0,
    flagged,
    acknowledged: false,
  });
}

/** Acknowledges a flagged result not acknowledged yet (the `pick`-th of them, in this file's order), if there is one. */
async function acknowledgeOne(pick: number) {
  const waiting = results.filter((result) => result.flagged && !result.acknowledged);
  if (waiting.length === 0) return;
  const result = waiting[pick % waiting.length]!;
  await call("admin", "POST", `/api/submissions/${result.id}/acknowledge`, { note: "Seen." });
  result.acknowledged = true;
}

/** Every result's updatedAt, as the administrator's list has it (updatedSince reads it). */
async function readUpdatedAt() {
  const { rows } = await allRows("admin", {});
  const updatedAt = new Map(rows.map((item) => [item.id, Date.parse(item.updatedAt)]));
  for (const result of results) result.updatedAt = updatedAt.get(result.id) ?? Number.NaN;
}

/** The instant a `from` bound stands for: a date is the start of that day in the organization's zone; a date-time without a zone is UTC. */
const lowerBound = (value: string) => Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00.000${ZONE_OFFSET}` : withZone(value));
/** The instant a `to` bound stands for: a date covers that whole day in the organization's zone. */
const upperBound = (value: string) => Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59.999${ZONE_OFFSET}` : withZone(value));
const withZone = (value: string) => (/(Z|[+-]\d{2}:\d{2})$/.test(value) ? value : `${value}Z`);

/** The results `caller` should get for `filter`, by this file's account of the data; null when the dates are reversed (400). */
function expected(caller: Caller, filter: Filter): Result[] | null {
  const from = filter.from === undefined ? undefined : lowerBound(filter.from);
  const to = filter.to === undefined ? undefined : upperBound(filter.to);
  if (from !== undefined && to !== undefined && from > to) return null;
  const term = filter.search === undefined ? "" : foldForSearch(filter.search);
  const members = filter.groupId === undefined ? undefined : groups.find((group) => group.id === filter.groupId)!.members;
  const since = filter.updatedSince === undefined ? undefined : Date.parse(filter.updatedSince);
  return results.filter(
    (result) =>
      (caller === "admin" || result.assignedBy === caller) &&
      (term === "" || submissionSearchText(result.respondent.name, result.formTitle).includes(term)) &&
      (from === undefined || result.completedAt >= from) &&
      (to === undefined || result.completedAt <= to) &&
      (filter.formId === undefined || result.formId === filter.formId) &&
      (members === undefined || members.has(key(result.respondent))) &&
      (filter.flagged === undefined || (result.flagged && (filter.flagged === "true" || !result.acknowledged))) &&
      (since === undefined || result.updatedAt >= since),
  );
}

const query = (filter: Filter, page: number, limit: number) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) if (value !== undefined) params.set(name, value);
  params.set("page", String(page));
  params.set("limit", String(limit));
  return `/api/reports?${params}`;
};

/** Every row of the list with `filter`, page after page of 100; and each page's total. */
async function allRows(caller: Caller, filter: Filter): Promise<{ rows: Item[]; totals: number[] }> {
  const rows: Item[] = [];
  const totals: number[] = [];
  for (let page = 1; ; page += 1) {
    const listed = await call(caller, "GET", query(filter, page, 100));
    rows.push(...(listed.body.reports as Item[]));
    totals.push(listed.body.total);
    if (listed.body.reports.length < 100) return { rows, totals };
  }
}

/** The property: the page's total is the number of rows, the rows are the expected ones, the page is their slice. */
async function checkList({ caller, filter, page, limit }: Omit<Run, "change">) {
  const answer = await api("GET", query(filter, page, limit), { cookie: staff[caller].cookie });
  const wanted = expected(caller, filter);
  if (wanted === null) {
    expect(answer.status, answer.text).toBe(400);
    return;
  }
  expect(answer.status, answer.text).toBe(200);
  const { rows, totals } = await allRows(caller, filter);
  const context = JSON.stringify({ caller, filter, page, limit });
  expect(answer.body.total, context).toBe(rows.length);
  for (const total of totals) expect(total, context).toBe(rows.length);
  expect(rows.map((row) => row.id).sort(), context).toEqual(wanted.map((result) => result.id).sort());
  const pageIds = (answer.body.reports as Item[]).map((row) => row.id);
  expect(pageIds, context).toEqual(rows.slice((page - 1) * limit, page * limit).map((row) => row.id));
  if (filter.updatedSince === undefined) {
    const completed = rows.map((row) => Date.parse(row.completedAt));
    expect(completed, context).toEqual([...completed].sort((x, y) => y - x));
  }
}

async function applyChange(change: Change) {
  if (change.kind === "acknowledge") {
    // An acknowledgement is a change of the result (its updatedAt), which updatedSince reads.
    await acknowledgeOne(change.result);
    await readUpdatedAt();
    return;
  }
  if (change.kind === "result") {
    const choices = assignable(change.by);
    await complete(change.by, choices[change.form % choices.length]!.form, respondents[change.respondent % respondents.length]!, change.answers);
    await readUpdatedAt();
    return;
  }
  const group = groups[change.group % groups.length]!;
  const respondent = respondents[change.respondent % respondents.length]!;
  const people = { studentIds: respondent.kind === "student" ? [respondent.id] : [], candidateIds: respondent.kind === "candidate" ? [respondent.id] : [] };
  const leaving = group.members.has(key(respondent));
  await call("admin", leaving ? "DELETE" : "POST", `/api/groups/${group.id}/members`, people);
  if (leaving) group.members.delete(key(respondent));
  else group.members.add(key(respondent));
}

const STUDENTS = ["José Muñoz", "Maria Silva", "Mariana Souza", "Zoë Lefèvre", "Łukasz Wójcik", "Ana Maria Costa", "Marco Rossi"];
const CANDIDATES = ["Marta Núñez", "João Lima"];
const FIRST = Date.parse("2025-03-01T18:29:59.999Z");

beforeAll(async () => {
  const organization = await testDatabase().organization.create({ data: { name: unique("Totals property"), timeZone: ZONE } });
  for (const [who, role] of [
    ["admin", "ADMIN"],
    ["a", "TEACHER"],
    ["b", "TEACHER"],
  ] as const) {
    const user = await createSignedInUser(role, { as: "superadmin@demo.test", organizationId: organization.id });
    staff[who] = { id: user.id, cookie: user.cookie };
  }
  /** A form of `owner`; a critical one flags a result whose first answer is "B" (docs/api-contract.md §16). */
  const newForm = async (owner: Caller, title: string, options: { isTemplate?: boolean; critical?: boolean } = {}) => {
    const body = mixedForm(title);
    if (options.critical) Object.assign(body.questions[0]!.options![1]!, { critical: true });
    const created = await call(owner, "POST", "/api/forms", { ...body, isTemplate: options.isTemplate ?? false });
    forms.push({ owner, form: created.body, isTemplate: options.isTemplate ?? false, critical: options.critical ?? false });
  };
  forms = [];
  await newForm("a", "Lectura rápida", { critical: true });
  await newForm("a", "Évaluation lecture");
  await newForm("b", "Matemáticas básicas");
  await newForm("b", "Lectura avanzada");
  // A template both teachers assign, whose title holds a respondent's name.
  await newForm("admin", "Bienestar de María", { isTemplate: true, critical: true });

  respondents = [];
  for (const name of STUDENTS) respondents.push({ kind: "student", id: (await call("admin", "POST", "/api/students", { name })).body.id, name });
  for (const name of CANDIDATES) respondents.push({ kind: "candidate", id: (await call("admin", "POST", "/api/candidates", { name })).body.id, name });

  groups = [];
  for (const members of [[1, 0, 7], [3, 5, 8], []]) {
    const group = await call("admin", "POST", "/api/groups", { name: unique("Totals group") });
    const people = members.map((index) => respondents[index]!);
    if (people.length > 0) {
      await call("admin", "POST", `/api/groups/${group.body.id}/members`, {
        studentIds: people.filter((person) => person.kind === "student").map((person) => person.id),
        candidateIds: people.filter((person) => person.kind === "candidate").map((person) => person.id),
      });
    }
    groups.push({ id: group.body.id, members: new Set(people.map(key)) });
  }
  const removed = await call("admin", "POST", "/api/groups", { name: unique("Totals removed group") });
  await call("admin", "DELETE", `/api/groups/${removed.body.id}`);
  deletedGroupId = removed.body.id;

  // 27 results over about five days from just before a local midnight, every ~4 hours 7 minutes;
  // the second one a millisecond after the first, on the next local day.
  const callers: Caller[] = ["a", "b", "admin"];
  for (let i = 0; i < 27; i += 1) {
    const by = callers[i % 3]!;
    const choices = assignable(by);
    const at = i === 0 ? FIRST : FIRST + 1 + (i - 1) * 14_833_500;
    await complete(by, choices[i % choices.length]!.form, respondents[(i * 5) % respondents.length]!, i, new Date(at));
  }
  // Some of the flagged results acknowledged already.
  for (const pick of [0, 2, 4]) await acknowledgeOne(pick);
  expect(results.filter((result) => result.flagged && result.acknowledged)).toHaveLength(3);
  expect(results.filter((result) => result.flagged && !result.acknowledged).length).toBeGreaterThan(3);
  // Pending links are never reports.
  for (const by of callers) {
    const form = assignable(by)[0]!.form;
    await call(by, "POST", "/api/submissions", { formId: form.id, studentId: respondents[1]!.id });
  }
  await readUpdatedAt();
});

describe("GET /api/reports totals", () => {
  it("given 500 random combinations of every filter, a page and now and then a change, should answer as total the number of rows the filters select", async () => {
    const days = ["2025-02-28", "2025-03-01", "2025-03-02", "2025-03-03", "2025-03-04", "2025-03-05", "2025-03-06", "2025-03-07"];
    days.push(new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10));
    const instants = results.map((result) => result.completedAt);
    const sometimes = <T>(value: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: value, weight: 2 });

    const sources = [
      ...respondents.map((respondent) => respondent.name),
      ...forms.map((entry) => entry.form.title),
      ...results.map((result) => `${result.respondent.name} ${result.formTitle}`),
      'Ma"ria 50% x_y',
    ];
    const fragment = fc
      .record({
        source: fc.constantFrom(...sources),
        start: fc.nat(),
        length: fc.integer({ min: 1, max: 24 }),
        shape: fc.constantFrom("as written", "upper case", "no accents", "padded"),
      })
      .map(({ source, start, length, shape }) => {
        const from = start % source.length;
        const term = source.slice(from, from + length);
        if (shape === "upper case") return term.toUpperCase();
        if (shape === "no accents") return term.normalize("NFD").replace(/\p{M}/gu, "");
        if (shape === "padded") return `  ${term} `;
        return term;
      });
    const search = fc.oneof(fragment, fc.constantFrom("mar", "ma", "a", "lectura", "nadie aquí", " "));

    const date = fc.oneof(
      fc.constantFrom(...days),
      fc
        .record({ at: fc.constantFrom(...instants), nudge: fc.constantFrom(-1, 0, 1), written: fc.constantFrom("Z", "no zone", "offset") })
        .map(({ at, nudge, written }) => {
          const instant = new Date(at + nudge);
          if (written === "Z") return instant.toISOString();
          if (written === "no zone") return instant.toISOString().slice(0, -1);
          return `${new Date(instant.getTime() + 330 * 60_000).toISOString().slice(0, -1)}${ZONE_OFFSET}`;
        }),
    );
    const updatedSince = fc
      .record({ at: fc.constantFrom(...results.map((result) => result.updatedAt)), nudge: fc.constantFrom(-1, 0, 1) })
      .map(({ at, nudge }) => new Date(at + nudge).toISOString());

    const filter: fc.Arbitrary<Filter> = fc
      .record({
        search: sometimes(search),
        from: sometimes(date),
        to: sometimes(date),
        formId: sometimes(fc.constantFrom(...forms.map((entry) => entry.form.id))),
        groupId: sometimes(fc.constantFrom(...groups.map((group) => group.id))),
        flagged: sometimes(fc.constantFrom<Flagged>("true", "unacknowledged")),
        updatedSince: fc.oneof({ arbitrary: fc.constant(undefined), weight: 6 }, { arbitrary: updatedSince, weight: 1 }),
      })
      .map((record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)));
    const change: fc.Arbitrary<Change> = fc.oneof(
      fc.record({
        kind: fc.constant("result" as const),
        by: fc.constantFrom<Caller>("admin", "a", "b"),
        form: fc.nat(),
        respondent: fc.nat(),
        answers: fc.nat(),
      }),
      fc.record({ kind: fc.constant("member" as const), group: fc.nat(), respondent: fc.nat() }),
      fc.record({ kind: fc.constant("acknowledge" as const), result: fc.nat() }),
    );
    const run: fc.Arbitrary<Run> = fc.record({
      caller: fc.constantFrom<Caller>("admin", "a", "b"),
      filter,
      page: fc.integer({ min: 1, max: 4 }),
      limit: fc.constantFrom(1, 2, 3, 5, 10, 20, 100),
      change: fc.oneof({ arbitrary: fc.constant(null), weight: 7 }, { arbitrary: change, weight: 1 }),
    });

    const form = (owner: Caller) => forms.find((entry) => entry.owner === owner)!.form.id;
    await fc.assert(
      fc.asyncProperty(run, async ({ change, ...list }) => {
        await checkList(list);
        if (change === null) return;
        await applyChange(change);
        await checkList(list);
      }),
      {
        numRuns: 500,
        // Every shortcut the totals take, every time: the counts (a scope, a form of it), the cache
        // (a search, dates), a count every time (a group), each followed by a change.
        examples: [
          [{ caller: "a", filter: {}, page: 1, limit: 5, change: { kind: "result", by: "a", form: 0, respondent: 0, answers: 0 } }],
          [{ caller: "a", filter: { formId: form("a") }, page: 2, limit: 2, change: { kind: "result", by: "a", form: 0, respondent: 1, answers: 1 } }],
          [{ caller: "b", filter: { formId: form("a") }, page: 1, limit: 20, change: null }],
          [{ caller: "admin", filter: { search: "mar" }, page: 1, limit: 3, change: { kind: "result", by: "b", form: 1, respondent: 2, answers: 2 } }],
          [{ caller: "admin", filter: { from: "2025-03-02", to: "2025-03-03" }, page: 1, limit: 100, change: null }],
          [{ caller: "admin", filter: { groupId: groups[0]!.id }, page: 1, limit: 10, change: { kind: "member", group: 0, respondent: 2 } }],
          [{ caller: "a", filter: { groupId: groups[0]!.id }, page: 1, limit: 10, change: { kind: "member", group: 0, respondent: 0 } }],
          [{ caller: "admin", filter: { groupId: groups[2]!.id, formId: form("b") }, page: 1, limit: 1, change: { kind: "member", group: 2, respondent: 3 } }],
          // The flagged filter, cached with its value: an acknowledgement and a new flagged result change its totals.
          [{ caller: "admin", filter: { flagged: "unacknowledged" }, page: 1, limit: 2, change: { kind: "acknowledge", result: 0 } }],
          [
            {
              caller: "a",
              filter: { flagged: "true", formId: form("a") },
              page: 1,
              limit: 3,
              change: { kind: "result", by: "a", form: 0, respondent: 4, answers: 0 },
            },
          ],
          [{ caller: "b", filter: { flagged: "unacknowledged", search: "mar" }, page: 1, limit: 5, change: { kind: "acknowledge", result: 1 } }],
        ],
      },
    );
  }, 600_000);

  it("given a group deleted since, should answer 404 rather than a total", async () => {
    for (const caller of ["admin", "a"] as const) {
      const answer = await api("GET", query({ groupId: deletedGroupId }, 1, 20), { cookie: staff[caller].cookie });
      expect(answer.status, answer.text).toBe(404);
    }
  });
});
