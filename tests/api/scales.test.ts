import { parse } from "csv-parse/sync";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "../../app/lib/db.server.ts";
import { pdfText } from "../support/pdf-text.ts";
import { api, baseUrl, unique } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createSignedInUser, errorPaths, expectProblem } from "../support/fixtures.ts";
import { checkWebhookBody } from "../support/response-contract.ts";
import { startWebhookReceiver } from "../support/webhook-receiver.ts";

/**
 * Scores beyond one total and critical answers (docs/api-contract.md §15, §16) over real HTTP: a
 * form with two subscales (× 2, as DASS-21 scores them), a reverse-scored item, a critical option
 * and a critical band; its validation; completions through the public link that are scored
 * whole, prorated and unscorable; and the result as the report list, the report, the export and
 * the `submission.completed` delivery carry it. The file makes its own organizations, so other
 * files' results and webhooks never meet these.
 */
type Organization = { id: string; admin: string };

/** A page of the clinic's, as its HTML. */
async function page(path: string) {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { cookie: clinic.admin } });
  expect(response.status, path).toBe(200);
  return response.text();
}

/** A page's words as a person reads them: the markup gone, the spaces collapsed. */
const pageText = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&nbsp;|\s+/g, " ");

let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let clinic: Organization;
let elsewhere: Organization;

async function newOrganization(label: string): Promise<Organization> {
  const organization = await testDatabase().organization.create({ data: { name: unique(label) } });
  const admin = await createSignedInUser("ADMIN", { as: "superadmin@demo.test", organizationId: organization.id });
  return { id: organization.id, admin: admin.cookie };
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  [clinic, elsewhere] = await Promise.all([newOrganization("Scales Clinic"), newOrganization("Scales Elsewhere")]);
});

afterAll(() => receiver.close());

const as = (method: string, path: string, json?: unknown, organization = clinic) =>
  api(method, path, { cookie: organization.admin, ...(json === undefined ? {} : { json }) });

const often = ["Never", "Sometimes", "Often", "Almost always"];
/** Four options scored 0–3; on a critical item, "Often" and "Almost always" flag the result. */
const options = (critical = false) => often.map((text, score) => ({ text, score, ...(critical && score >= 2 ? { critical: true } : {}) }));

const [GREEN, AMBER, RED] = ["#1A7F37", "#B54708", "#B42318"];
const normal = { min: 0, max: 5, label: "Normal", color: GREEN };

/**
 * Six items: d1–d3 (required; d3 critical from "Often") and a1–a3 (optional; a3 reverse scored).
 * Subscales of three items each, summed × 2 (0–18); the total a plain sum (0–18) with one missing
 * item allowed. Depression's 12–18 band is critical.
 */
type Question = { key?: string; text: string; type: string; required?: boolean; reverseScored?: boolean; options?: unknown[] };

function scaleForm(title = unique("Mood scales")) {
  const item = (key: string, text: string, extra: Partial<Question> = {}): Question => ({
    key,
    text,
    type: "SINGLE_CHOICE",
    options: options(),
    ...extra,
  });
  return {
    title,
    isPublished: true,
    criticalMessage: "If you are in danger now, call your local emergency number.",
    scoring: { method: "SUM", maxMissing: 1, display: "RAW" },
    scoreRanges: [
      { min: 0, max: 6, label: "Low", color: "#1A7F37" },
      { min: 7, max: 12, label: "Mid", color: "#B54708" },
      { min: 13, max: 18, label: "High", color: "#B42318" },
    ],
    questions: [
      item("d1", "I felt down", { required: true }),
      item("d2", "I found nothing to look forward to", { required: true }),
      item("d3", "I felt life was not worth living", { required: true, options: options(true) }),
      item("a1", "I felt my heart racing"),
      item("a2", "I felt close to panic"),
      item("a3", "I felt calm", { reverseScored: true }),
      { text: "Anything else?", type: "TEXT" } as Question,
    ],
    subscales: [
      {
        key: "depression",
        name: "Depression",
        items: ["d1", "d2", "d3"],
        multiplier: 2,
        scoreRanges: [normal, { min: 6, max: 11, label: "Moderate", color: AMBER }, { min: 12, max: 18, label: "Severe", color: RED, critical: true }],
      },
      {
        key: "anxiety",
        name: "Anxiety",
        items: ["a1", "a2", "a3"],
        multiplier: 2,
        scoreRanges: [normal, { min: 6, max: 18, label: "Raised", color: AMBER }],
      },
    ],
  };
}

type Form = { id: string; questions: { id: string; key: string; options: { id: string; score: number }[] }[] };

/** The answers by question key: the option scored `score` (its printed score, before any mirroring); keys left out are unanswered. */
function answersFor(form: Form, scores: Record<string, number>) {
  return {
    answers: Object.entries(scores).map(([key, score]) => {
      const question = form.questions.find((q) => q.key === key)!;
      return { questionId: question.id, optionIds: [question.options.find((o) => o.score === score)!.id] };
    }),
  };
}

async function linkFor(form: Form, organization = clinic) {
  const student = await as("POST", "/api/students", { name: unique("Respondent") }, organization);
  expect(student.status, student.text).toBe(201);
  const link = await as("POST", "/api/submissions", { formId: form.id, studentId: student.body.id }, organization);
  expect(link.status, link.text).toBe(201);
  return { ...(link.body as { id: string; token: string }), studentId: student.body.id as string };
}

async function complete(form: Form, scores: Record<string, number>) {
  const link = await linkFor(form);
  const submitted = await api("POST", `/api/test-link/${link.token}/submit`, { json: answersFor(form, scores) });
  expect(submitted.status, submitted.text).toBe(200);
  return { id: link.id, studentId: link.studentId, completedAt: submitted.body.completedAt as string };
}

const subscale = (key: string, name: string, result: Record<string, unknown>) => ({ key, name, maxScore: 18, items: 3, ...result });

describe("a form with subscales, a reverse item and critical answers", () => {
  let form: Form;
  let hook: { id: string; secret: string };
  type Completed = Awaited<ReturnType<typeof complete>>;
  let flagged: Completed;
  let prorated: Completed;
  let unscorable: Completed;

  beforeAll(async () => {
    const created = await as("POST", "/api/forms", scaleForm());
    expect(created.status, created.text).toBe(201);
    form = created.body;
    const webhook = await as("POST", "/api/webhooks", { url: receiver.url, events: ["submission.completed"], formIds: [form.id] });
    expect(webhook.status, webhook.text).toBe(201);
    hook = webhook.body;
    // Depression 3 + 3 + 2 = 8 × 2 = 16, Severe (critical), and "Often" on d3 is critical; anxiety
    // 1 + 0 + (3 mirrored to 0) = 1 × 2 = 2; the total 3 + 3 + 2 + 1 + 0 + 0 = 9.
    flagged = await complete(form, { d1: 3, d2: 3, d3: 2, a1: 1, a2: 0, a3: 3 });
    // d2 left out although required (maxMissing 1): depression (3 + 0) × 3 / 2 = 4.5 × 2 = 9;
    // anxiety 1 + 1 + (3 mirrored to 0) = 2 × 2 = 4; the total (3 + 0 + 1 + 1 + 0) × 6 / 5 = 6.
    prorated = await complete(form, { d1: 3, d3: 0, a1: 1, a2: 1, a3: 3 });
    // a1 and a2 left out: anxiety and the total miss two items, one more than allowed.
    unscorable = await complete(form, { d1: 1, d2: 1, d3: 1, a3: 0 });
  });

  it("given the form, should answer its keys, reverse item, critical option and band, scoring and subscales", async () => {
    const read = await as("GET", `/api/forms/${form.id}`);
    expect(read.status).toBe(200);
    expect(read.body.questions.map((q: { key: string }) => q.key)).toEqual(["d1", "d2", "d3", "a1", "a2", "a3", "q7"]);
    expect(read.body.questions[5]).toMatchObject({ key: "a3", reverseScored: true });
    expect(read.body.questions[0].reverseScored).toBe(false);
    expect(read.body.questions[2].options.map((o: { critical: boolean }) => o.critical)).toEqual([false, false, true, true]);
    expect(read.body.scoring).toEqual({ method: "SUM", multiplier: 1, maxMissing: 1, display: "RAW" });
    expect(read.body.subscales).toHaveLength(2);
    expect(read.body.subscales[0]).toEqual({
      ...scaleForm().subscales[0],
      method: "SUM",
      scoreRanges: expect.any(Array),
      reliableChange: null,
      remissionBelow: null,
    });
    expect(read.body.subscales[0].scoreRanges.map((band: { critical: boolean }) => band.critical)).toEqual([false, false, true]);
    expect(read.body.criticalMessage).toBe("If you are in danger now, call your local emergency number.");
    // The public link shows neither keys, nor scores, nor what is critical.
    const link = await linkFor(form);
    const open = await api("GET", `/api/test-link/${link.token}`);
    expect(open.status).toBe(200);
    expect(open.text).not.toMatch(/critical|reverseScored|subscales|"key"/);
    // One scored item may be missing: the link shows every scored item as optional, and the submit checks them together.
    expect(open.body.form.questions.map((q: { required: boolean }) => q.required)).toEqual([false, false, false, false, false, false, false]);
  });

  it("given a completion with a critical option in a critical band, should report its subscales and flags on the list and the report", async () => {
    const list = await as("GET", `/api/reports?formId=${form.id}`);
    expect(list.status).toBe(200);
    const item = list.body.reports.find((report: { id: string }) => report.id === flagged.id);
    const expected = {
      totalScore: 9,
      maxScore: 18,
      percentage: 50,
      scoreLabel: "Mid",
      subscales: [
        subscale("depression", "Depression", { score: 16, label: "Severe", color: "#B42318", answered: 3, prorated: false, scorable: true }),
        subscale("anxiety", "Anxiety", { score: 2, label: "Normal", color: "#1A7F37", answered: 3, prorated: false, scorable: true }),
      ],
      flags: [
        { kind: "OPTION", questionKey: "d3", text: "I felt life was not worth living — Often" },
        { kind: "BAND", subscaleKey: "depression", text: "Depression: Severe" },
      ],
      flaggedAt: flagged.completedAt,
    };
    expect(item).toMatchObject(expected);

    const detail = await as("GET", `/api/reports/${flagged.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject(expected);
    // The reverse item counts its mirror: "Almost always" (3) on "I felt calm" scores 0.
    expect(detail.body.answers[5]).toMatchObject({ questionText: "I felt calm", optionTexts: ["Almost always"], score: 0, maxScore: 3 });
    expect(detail.body.scoreRanges.map((band: { critical: boolean }) => band.critical)).toEqual([false, false, false]);
  });

  it("given a form that shows its total RAW, should headline the score of its maximum, not a percentage, on the pages and in the PDF", async () => {
    const detail = await as("GET", `/api/reports/${flagged.id}`);
    expect(detail.body.display).toBe("RAW");
    const list = await as("GET", `/api/reports?formId=${form.id}`);
    expect(list.body.reports.map((report: { display: string }) => report.display)).toEqual(["RAW", "RAW", "RAW"]);

    const report = pageText(await page(`/en/reports/${flagged.id}`));
    expect(report).toMatch(/Total score ?: 9 \/ 18/);
    expect(report).not.toContain("50%");
    expect(pageText(await page(`/es/reports/${prorated.id}`))).toContain("6 / 18");

    const pdf = pdfText(await (await fetch(`${baseUrl()}/en/reports/${flagged.id}/pdf`, { headers: { cookie: clinic.admin } })).arrayBuffer());
    expect(pdf).toContain("9 / 18");
    expect(pdf).not.toContain("50%");

    // The list shows the score and no percentage for it; the person's history table the same.
    const reports = pageText(await page(`/en/reports?formId=${form.id}`));
    expect(reports).toContain("9 / 18");
    expect(reports).toContain("This form shows its score, not a percentage");
    expect(reports).not.toContain("50%");
    const history = pageText(await page(`/en/students/${flagged.studentId}`));
    expect(history).toContain("9 / 18");
    expect(history).not.toContain("50%");
    // The assignments list and the assignment's page, the home page's latest results.
    for (const path of [`/en/assignments?formId=${form.id}`, `/en/assignments/${flagged.id}`, "/en/home"]) {
      const text = pageText(await page(path));
      expect(text, path).toContain("9 / 18");
      expect(text, path).not.toContain("50%");
    }

    // Edited to PERCENT afterwards, the results still show what they captured.
    const edited = await as("PUT", `/api/forms/${form.id}`, { scoring: { method: "SUM", maxMissing: 1, display: "PERCENT" } });
    expect(edited.status, edited.text).toBe(200);
    expect(pageText(await page(`/en/reports/${flagged.id}`))).toMatch(/Total score ?: 9 \/ 18/);
    const restored = await as("PUT", `/api/forms/${form.id}`, { scoring: { method: "SUM", maxMissing: 1, display: "RAW" } });
    expect(restored.status, restored.text).toBe(200);
  });

  it("given items left out within maxMissing, should prorate; beyond it, should leave the score null and unscorable", async () => {
    const prorate = await as("GET", `/api/reports/${prorated.id}`);
    expect(prorate.status).toBe(200);
    expect(prorate.body).toMatchObject({
      totalScore: 6,
      percentage: 33.33,
      scoreLabel: "Low",
      flags: [],
      flaggedAt: null,
      subscales: [
        subscale("depression", "Depression", { score: 9, label: "Moderate", answered: 2, prorated: true, scorable: true }),
        subscale("anxiety", "Anxiety", { score: 4, label: "Normal", answered: 3, prorated: false, scorable: true }),
      ],
    });

    const unscored = await as("GET", `/api/reports/${unscorable.id}`);
    expect(unscored.status).toBe(200);
    expect(unscored.body).toMatchObject({
      totalScore: null,
      percentage: null,
      scoreLabel: null,
      scoreColor: null,
      subscales: [
        subscale("depression", "Depression", { score: 6, label: "Moderate", answered: 3, prorated: false, scorable: true }),
        subscale("anxiety", "Anxiety", { score: null, label: null, color: null, answered: 1, prorated: false, scorable: false }),
      ],
    });
    // The PDF of an unscorable result is made all the same.
    const pdf = await as("POST", "/api/reports/export", { submissionId: unscorable.id });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
  });

  it("given more required items left out than maxMissing allows, should refuse the submit naming each", async () => {
    const link = await linkFor(form);
    const refused = await api("POST", `/api/test-link/${link.token}/submit`, { json: answersFor(form, { d3: 0, a1: 0, a2: 0, a3: 0 }) });
    expectProblem(refused, 400);
    expect(errorPaths(refused)).toEqual([`questions.${form.questions[0]!.id}`, `questions.${form.questions[1]!.id}`]);
  });

  it("given the form chosen, should export a column per subscale after the total and its change", async () => {
    const csv = await as("GET", `/api/reports/export?format=csv&formId=${form.id}`);
    expect(csv.status, csv.text).toBe(200);
    const [header, ...rows] = parse(csv.text.replace(/^\uFEFF/, "")) as string[][];
    const at = header!.indexOf("remission");
    expect(at).toBe(header!.indexOf("scoreLabel") + 5);
    expect(header!.slice(at + 1, at + 3)).toEqual(["Depression [depression]", "Anxiety [anxiety]"]);
    expect(header![at + 3]).toBe("1. I felt down");
    const row = (id: string) => rows.find((cells) => cells[0] === id)!;
    expect(row(flagged.id).slice(at + 1, at + 3)).toEqual(["16", "2"]);
    expect(row(prorated.id).slice(at + 1, at + 3)).toEqual(["9", "4"]);
    expect(row(unscorable.id).slice(at + 1, at + 3)).toEqual(["6", ""]);
    expect(row(unscorable.id)[header!.indexOf("totalScore")]).toBe("");
  });

  it("given the form's summary, should give each subscale's spread over the scores the results captured", async () => {
    const summary = await as("GET", `/api/forms/${form.id}/summary`);
    expect(summary.status, summary.text).toBe(200);
    // Depression 16, 9 and 6; anxiety 2 and 4, the third result unscorable for it.
    expect(summary.body.subscales).toEqual([
      { key: "depression", name: "Depression", scored: 3, mean: 10.33, min: 6, max: 16 },
      { key: "anxiety", name: "Anxiety", scored: 2, mean: 3, min: 2, max: 4 },
    ]);
    // The total's spread leaves out the result it could not score.
    expect(summary.body.score).toEqual({ mean: 7.5, median: 7.5, min: 6, max: 9 });
    const html = await (await fetch(`${baseUrl()}/en/forms/${form.id}/summary`, { headers: { cookie: clinic.admin } })).text();
    expect(html).toMatch(/Subscales[\s\S]*Depression[\s\S]*10\.33/);
  });

  it("given a group of the respondents, should show each member's subscale scores in its results", async () => {
    const group = await as("POST", "/api/groups", { name: unique("Scales group") });
    expect(group.status, group.text).toBe(201);
    const members = await as("POST", `/api/groups/${group.body.id}/members`, { studentIds: [flagged.studentId, unscorable.studentId] });
    expect(members.status, members.text).toBe(200);
    const html = await (await fetch(`${baseUrl()}/en/groups/${group.body.id}`, { headers: { cookie: clinic.admin } })).text();
    expect(html).toContain("Depression 16 · Anxiety 2");
    // The unscorable result: its anxiety, and its total's percentage, are a dash.
    expect(html).toContain("Depression 6 · Anxiety —");
  });

  it("given a webhook, should deliver the subscales and flags with the report item", async () => {
    const about = (id: string) => receiver.received.filter((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id === id);
    await expect.poll(() => about(flagged.id).length, { timeout: 20_000 }).toBe(1);
    const [delivery] = about(flagged.id);
    const body = new Webhook(hook.secret).verify(delivery!.body, delivery!.headers as Record<string, string>) as { data: Record<string, unknown> };
    expect(body.data).toMatchObject({
      id: flagged.id,
      formId: form.id,
      totalScore: 9,
      subscales: [expect.objectContaining({ key: "depression", score: 16 }), expect.objectContaining({ key: "anxiety", score: 2 })],
      flags: [expect.objectContaining({ kind: "OPTION", questionKey: "d3" }), expect.objectContaining({ kind: "BAND", subscaleKey: "depression" })],
      flaggedAt: flagged.completedAt,
    });
    await checkWebhookBody(delivery!.body);
    await expect.poll(() => about(unscorable.id).length, { timeout: 20_000 }).toBe(1);
    await checkWebhookBody(about(unscorable.id)[0]!.body);
  });

  it("given another organization, should answer 404 for the form, its results and its export", async () => {
    expectProblem(await as("GET", `/api/forms/${form.id}`, undefined, elsewhere), 404);
    expectProblem(await as("PUT", `/api/forms/${form.id}`, { subscales: [] }, elsewhere), 404);
    expectProblem(await as("GET", `/api/reports/${flagged.id}`, undefined, elsewhere), 404);
    expectProblem(await as("GET", `/api/reports/export?format=csv&formId=${form.id}`, undefined, elsewhere), 404);
  });
});

describe("scoring configuration that does not fit", () => {
  it("given a subscale naming a key no scored question has, should refuse it at that item", async () => {
    const body = scaleForm();
    body.subscales[1]!.items = ["a1", "nope", "q7"];
    const refused = await as("POST", "/api/forms", body);
    expectProblem(refused, 400);
    expect(refused.body.errors).toEqual([
      { path: "subscales.1.items.1", message: "Not a scored question of this form." },
      // q7 is the text question's key: not a scored one.
      { path: "subscales.1.items.2", message: "Not a scored question of this form." },
    ]);
  });

  it("given two questions with one key, or a malformed key, should name the question", async () => {
    const body = scaleForm();
    body.questions[1]!.key = "d1";
    body.questions[3]!.key = "has space";
    const refused = await as("POST", "/api/forms", body);
    expectProblem(refused, 400);
    expect(errorPaths(refused)).toEqual(expect.arrayContaining(["questions.1.key", "questions.3.key"]));
    const messages = Object.fromEntries((refused.body.errors as { path: string; message: string }[]).map((error) => [error.path, error.message]));
    expect(messages["questions.1.key"]).toBe("Another one already uses this key.");
    expect(messages["questions.3.key"]).toMatch(/letters, digits/);
  });

  it("given more than 20 subscales or a malformed subscale key, should refuse them", async () => {
    const body = scaleForm();
    const many = Array.from({ length: 21 }, (_, i) => ({ key: `s${i}`, name: `S${i}`, items: ["d1"] }));
    const refused = await as("POST", "/api/forms", { ...body, subscales: many });
    expectProblem(refused, 400);
    expect(errorPaths(refused)).toEqual(["subscales"]);
    const badKey = await as("POST", "/api/forms", { ...body, subscales: [{ key: "dép ression", name: "D", items: ["d1"] }] });
    expectProblem(badKey, 400);
    expect(errorPaths(badKey)).toEqual(["subscales.0.key"]);
  });

  it("given a PUT of questions only that drops a key a stored subscale uses, should refuse it, and a swap of keys should pass", async () => {
    const created = await as("POST", "/api/forms", scaleForm());
    expect(created.status).toBe(201);
    const kept = (created.body.questions as Record<string, unknown>[]).map(({ id, key, text, type, options: opts }) => ({
      id,
      key,
      text,
      type,
      options: opts,
    }));
    const dropped = await as("PUT", `/api/forms/${created.body.id}`, { questions: kept.filter((q) => q.key !== "a2") });
    expectProblem(dropped, 400);
    expect(errorPaths(dropped)).toEqual(["subscales.1.items.1"]);
    // d1 and d2 swap their keys: unique in the form before and after.
    const swapped = kept.map((q) => (q.key === "d1" ? { ...q, key: "d2" } : q.key === "d2" ? { ...q, key: "d1" } : q));
    const saved = await as("PUT", `/api/forms/${created.body.id}`, { questions: swapped });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.questions.slice(0, 2).map((q: { key: string }) => q.key)).toEqual(["d2", "d1"]);
    // Kept questions and options sent without the new fields keep theirs.
    const bare = kept.map(({ key: _key, ...q }) => ({ ...q, options: (q.options as Record<string, unknown>[]).map(({ critical: _c, ...o }) => o) }));
    const again = await as("PUT", `/api/forms/${created.body.id}`, { questions: bare });
    expect(again.status, again.text).toBe(200);
    expect(again.body.questions[5]).toMatchObject({ key: "a3", reverseScored: true });
    expect(again.body.questions[2].options[3].critical).toBe(true);
  });
});

describe("bands read against the scored total", () => {
  /** Five items of 0–5 summed and × 4, as the WHO-5 scores them: totals 0 to 100. */
  const multiplied = (bands: { min: number; max: number; label: string; color: string }[]) => ({
    title: unique("Well-being"),
    scoring: { method: "SUM", multiplier: 4, display: "RAW" },
    scoreRanges: bands,
    questions: ["a", "b", "c", "d", "e"].map((text) => ({
      text,
      type: "SINGLE_CHOICE",
      options: [0, 1, 2, 3, 4, 5].map((score) => ({ text: `${score}`, score })),
    })),
  });
  const low = { min: 0, max: 28, label: "Low", color: RED };

  it("given a multiplier, should accept bands up to the multiplied total and refuse one beyond it", async () => {
    const accepted = await as("POST", "/api/forms", multiplied([low, { min: 29, max: 100, label: "Fine", color: GREEN }]));
    expect(accepted.status, accepted.text).toBe(201);
    const refused = await as("POST", "/api/forms", multiplied([low, { min: 101, max: 120, label: "Beyond", color: GREEN }]));
    expectProblem(refused, 400);
    expect(refused.body.errors).toEqual([{ path: "scoreRanges.1", message: "No total can fall in this range: totals on this form run from 0 to 100." }]);

    // A PUT of the bands alone, or of the scoring alone, is read against what is stored.
    const id = accepted.body.id as string;
    expect((await as("PUT", `/api/forms/${id}`, { scoreRanges: [{ min: 90, max: 100, label: "Top", color: GREEN }] })).status).toBe(200);
    const smaller = await as("PUT", `/api/forms/${id}`, { scoring: { method: "SUM", multiplier: 1, display: "RAW" } });
    expectProblem(smaller, 400);
    expect(errorPaths(smaller)).toEqual(["scoring"]);
    // A mean of the five items runs from 0 to 5 (× 20: 0 to 100), so the band of 90 to 100 is read against that.
    expectProblem(await as("PUT", `/api/forms/${id}`, { scoring: { method: "MEAN", multiplier: 1, display: "RAW" } }), 400);
    expect((await as("PUT", `/api/forms/${id}`, { scoring: { method: "MEAN", multiplier: 20, display: "RAW" } })).status).toBe(200);
  });
});

describe("a form without the new fields", () => {
  it("given a plain form, should read its defaults, score as before, and read a result captured before versioned snapshots", async () => {
    const created = await as("POST", "/api/forms", mixedForm());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      scoring: { method: "SUM", multiplier: 1, maxMissing: null, display: "PERCENT" },
      subscales: [],
      criticalMessage: null,
    });
    expect(created.body.questions.map((q: { key: string }) => q.key)).toEqual(["q1", "q2", "q3", "q4"]);
    const [q1, q2, q3] = created.body.questions;
    const link = await linkFor(created.body);
    // 3 + (2 − 1) + 0 = 4 of 9.5, as docs/api-contract.md §3 scores it.
    const answers = [
      { questionId: q1.id, optionIds: [q1.options[0].id] },
      { questionId: q2.id, optionIds: [q2.options[0].id, q2.options[1].id] },
      { questionId: q3.id, optionIds: [q3.options[0].id] },
    ];
    expect((await api("POST", `/api/test-link/${link.token}/submit`, { json: { answers } })).status).toBe(200);
    const detail = await as("GET", `/api/reports/${link.id}`);
    expect(detail.body).toMatchObject({ totalScore: 4, maxScore: 9.5, percentage: 42.11, scoreLabel: "Medium", subscales: [], flags: [], flaggedAt: null });

    // A snapshot written before it had a version: no keys, no critical, no scoring, no subscales,
    // no answer key, no feedback, no images.
    const stored = await testDatabase().submission.findUniqueOrThrow({ where: { id: link.id }, select: { scoredAgainst: true } });
    const { version, scoring: _scoring, subscales: _subscales, ...snapshot } = stored.scoredAgainst as Record<string, unknown>;
    expect(version).toBe(3);
    const old = {
      ...snapshot,
      questions: (snapshot.questions as Record<string, unknown>[]).map(
        ({ key: _key, reverseScored: _r, points: _p, scoringRule: _s, feedback: _f, imageId: _i, imageAlt: _a, options: opts, ...q }) => ({
          ...q,
          options: (opts as Record<string, unknown>[]).map(({ critical: _c, correct: _k, feedback: _f, imageId: _i, imageAlt: _a, ...o }) => o),
        }),
      ),
      scoreRanges: (snapshot.scoreRanges as Record<string, unknown>[]).map(({ critical: _c, ...band }) => band),
    };
    await testDatabase().submission.update({
      where: { id: link.id },
      data: { scoredAgainst: old as Prisma.InputJsonObject, subscales: Prisma.DbNull, flags: Prisma.DbNull },
    });
    const reread = await as("GET", `/api/reports/${link.id}`);
    expect(reread.status).toBe(200);
    expect(reread.body).toMatchObject({ totalScore: 4, subscales: [], flags: [], flaggedAt: null });
    expect(reread.body.scoreRanges.every((band: { critical: boolean }) => band.critical === false)).toBe(true);
    // A form that shows its percentage, captured before display was kept, still does.
    expect(reread.body.display).toBe("PERCENT");
    const report = pageText(await page(`/en/reports/${link.id}`));
    expect(report).toContain("42.1%");
    expect(report).toMatch(/Total score ?: 4 of 9.5/);
    const pdf = pdfText(await (await fetch(`${baseUrl()}/en/reports/${link.id}/pdf`, { headers: { cookie: clinic.admin } })).arrayBuffer());
    expect(pdf).toContain("42.11%");
  });
});
