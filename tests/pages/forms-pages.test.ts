import { describe, expect, inject, it } from "vitest";
import { api, baseUrl, sessionOf, unique } from "../support/api.ts";
import { mixedForm } from "../support/assessment.ts";

/** The Forms pages over plain HTTP: who may open them, the CSRF check, and the editor's intents. */
const teacher = () => sessionOf("teacher@demo.test");
const csrfOf = (session: string) => inject("csrf")[session]!;

/** `fields`: by name, or as entries when a name is posted more than once (ticked checkboxes). */
function post(path: string, fields: Record<string, string> | [string, string][], options: { csrf?: boolean } = {}) {
  const session = teacher();
  const csrf = csrfOf(session);
  const body = new URLSearchParams([
    ...(Array.isArray(fields) ? fields : Object.entries(fields)),
    ...(options.csrf === false ? [] : [["csrfToken", csrf.token]]),
  ]);
  return fetch(`${baseUrl()}${path}`, {
    method: "POST",
    // A browser's form post says where it comes from; the page's own check is the body's token.
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: `${session}; ${csrf.cookie}`, origin: baseUrl() },
    body,
    redirect: "manual",
  });
}

const escaped = (name: string) => name.replace(/[.[\]]/g, "\\$&");

/** The value an input of the page holds, whatever the order of its attributes. */
function inputValue(html: string, name: string) {
  const input = new RegExp(`<input[^>]*name="${escaped(name)}"[^>]*>`).exec(html)?.[0];
  return input ? (/ value="([^"]*)"/.exec(input)?.[1] ?? "") : null;
}

/** The message under a field, or null. */
const errorOf = (html: string, name: string) => new RegExp(`id="${escaped(name)}-error"[^>]*>([^<]*)<`).exec(html)?.[1] ?? null;

describe("the Forms pages over HTTP", () => {
  it("given a student's login, should answer the 403 page on the list, the editor and the templates", async () => {
    for (const path of ["/en/forms", "/en/forms/new", "/en/forms/templates"]) {
      const response = await fetch(`${baseUrl()}${path}`, { headers: { cookie: sessionOf("student@demo.test") }, redirect: "manual" });
      expect(response.status, path).toBe(403);
      expect(await response.text()).toContain("Not allowed");
    }
  });

  it("given a post without the CSRF token, should refuse it and save nothing", async () => {
    const title = unique("No token");
    const response = await post("/en/forms/new", { title, intent: "save" }, { csrf: false });
    expect(response.status).toBe(403);
    const list = await api("GET", `/api/forms?search=${encodeURIComponent(title)}`, { as: "teacher@demo.test" });
    expect(list.body.total).toBe(0);
  });

  it("given an editing intent, should answer the editor with the change made and every value kept, saving nothing", async () => {
    const title = unique("Intent");
    const response = await post("/en/forms/new", {
      title,
      "questions[0].id": "",
      "questions[0].text": "First",
      "questions[0].type": "SINGLE_CHOICE",
      "questions[0].options[0].id": "",
      "questions[0].options[0].text": "Yes",
      "questions[0].options[0].score": "1",
      "questions[1].id": "",
      "questions[1].text": "Second",
      "questions[1].type": "TEXT",
      // Conform's list intent, as the "Move question 2 up" button sends it.
      __INTENT__: 'reorder({"name":"questions","from":1,"to":0})',
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`value="${title}"`);
    expect(html.indexOf(">Second</textarea>")).toBeLessThan(html.indexOf(">First</textarea>"));
    expect(html).toMatch(/name="questions\[1\]\.options\[0\]\.text"[^>]*value="Yes"|value="Yes"[^>]*name="questions\[1\]\.options\[0\]\.text"/);
    const list = await api("GET", `/api/forms?search=${encodeURIComponent(title)}`, { as: "teacher@demo.test" });
    expect(list.body.total).toBe(0);
  });

  it("given an intent no button sends, or items beyond the API's limits, should answer the editor as posted and save nothing", async () => {
    const title = unique("Tampered");
    const tampered = await post("/en/forms/new", { title, "questions[0].text": "Kept", __INTENT__: "explode({})" });
    expect(tampered.status).toBe(400);
    const html = await tampered.text();
    expect(html).toContain(`value="${title}"`);
    expect(html).toContain(">Kept</textarea>");
    // Question 201 is past the API's 200: not read, so it neither shows nor costs the server.
    const beyond = await post("/en/forms/new", {
      title,
      "questions[0].text": "First",
      "questions[200].text": "Too far",
      __INTENT__: 'insert({"name":"questions"})',
    });
    expect(beyond.status).toBe(200);
    const page = await beyond.text();
    expect(page).not.toContain("Too far");
    expect(page).toContain('name="questions[1].text"');
    expect(page).not.toContain('name="questions[2].text"');
    const list = await api("GET", `/api/forms?search=${encodeURIComponent(title)}`, { as: "teacher@demo.test" });
    expect(list.body.total).toBe(0);
  });

  it("given a valid save, should create the form and redirect to its editor with a message (post/redirect/get)", async () => {
    const title = unique("Saved by post");
    const response = await post("/en/forms/new", {
      title,
      "questions[0].text": "Only text",
      "questions[0].type": "TEXT",
      "scoreRanges[0].label": "All",
      "scoreRanges[0].min": "0",
      "scoreRanges[0].max": "0",
      "scoreRanges[0].color": "#1a7f37",
      intent: "save",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/en\/forms\/[a-z0-9]+$/);
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("flash="))).toBe(true);
    const list = await api("GET", `/api/forms?search=${encodeURIComponent(title)}`, { as: "teacher@demo.test" });
    expect(list.body.total).toBe(1);
  });

  it("given a form with keys, a reverse item, critical answers and a subscale, should keep them when the editor saves them as it shows them", async () => {
    const options = [
      { text: "No", score: 0 },
      { text: "Yes", score: 1, critical: true },
    ];
    const created = await api("POST", "/api/forms", {
      as: "teacher@demo.test",
      json: {
        title: unique("Kept scales"),
        questions: [
          { key: "mood", text: "Low mood", type: "SINGLE_CHOICE", reverseScored: true, options },
          { key: "sleep", text: "Poor sleep", type: "SINGLE_CHOICE", options },
        ],
        scoreRanges: [
          { min: 0, max: 1, label: "Fine", color: "#1a7f37" },
          { min: 2, max: 2, label: "Urgent", color: "#b42318", critical: true },
        ],
        scoring: { method: "SUM", multiplier: 1, maxMissing: 1, display: "RAW" },
        subscales: [{ key: "both", name: "Both", items: ["mood", "sleep"], multiplier: 2, reliableChange: { sd: 0.9, reliability: 0.7 }, remissionBelow: 1 }],
        criticalMessage: "Call someone you trust.",
        // A higher score is better: the editor shows the box unticked, which posts nothing.
        reliableChange: { sd: 4.8, reliability: 0.84 },
        remissionBelow: 5,
        lowerIsBetter: false,
      },
    });
    expect(created.status, created.text).toBe(201);
    const form = created.body;
    // The editor's fields, as it renders this form (a ticked checkbox posts "on"); the title changed.
    const fields: [string, string][] = [
      ["title", `${form.title} (edited)`],
      ["intent", "save"],
      ["scoring.method", "SUM"],
      ["scoring.multiplier", "1"],
      ["scoring.maxMissing", "1"],
      ["scoring.display", "RAW"],
      ["criticalMessage", form.criticalMessage],
      ["reliableChange.sd", "4.8"],
      ["reliableChange.reliability", "0.84"],
      ["remissionBelow", "5"],
    ];
    type Question = {
      id: string;
      key: string;
      text: string;
      reverseScored: boolean;
      options: { id: string; text: string; score: number; critical: boolean }[];
    };
    for (const [i, question] of (form.questions as Question[]).entries()) {
      const at = `questions[${i}]`;
      fields.push(
        [`${at}.id`, question.id],
        [`${at}.ref`, question.id],
        [`${at}.key`, question.key],
        [`${at}.text`, question.text],
        [`${at}.type`, "SINGLE_CHOICE"],
      );
      if (question.reverseScored) fields.push([`${at}.reverseScored`, "on"]);
      for (const [j, option] of question.options.entries()) {
        fields.push([`${at}.options[${j}].id`, option.id], [`${at}.options[${j}].text`, option.text], [`${at}.options[${j}].score`, String(option.score)]);
        if (option.critical) fields.push([`${at}.options[${j}].critical`, "on"]);
      }
    }
    for (const [i, range] of (form.scoreRanges as { min: number; max: number; label: string; color: string; critical: boolean }[]).entries()) {
      const at = `scoreRanges[${i}]`;
      fields.push([`${at}.min`, String(range.min)], [`${at}.max`, String(range.max)], [`${at}.label`, range.label], [`${at}.color`, range.color]);
      if (range.critical) fields.push([`${at}.critical`, "on"]);
    }
    // A subscale ticks its questions by the editor's ref, their id.
    fields.push(["subscales[0].key", "both"], ["subscales[0].name", "Both"], ["subscales[0].method", "SUM"], ["subscales[0].multiplier", "2"]);
    fields.push(["subscales[0].reliableChange.sd", "0.9"], ["subscales[0].reliableChange.reliability", "0.7"], ["subscales[0].remissionBelow", "1"]);
    for (const question of form.questions as Question[]) fields.push(["subscales[0].items", question.id]);
    // The editor shows what it will post.
    const editor = await (await fetch(`${baseUrl()}/en/forms/${form.id}`, { headers: { cookie: teacher() } })).text();
    for (const [name, value] of fields.filter(([name]) => /reliableChange|remissionBelow/.test(name))) expect(inputValue(editor, name), name).toBe(value);
    expect(editor).toMatch(/<input(?![^>]*checked)[^>]*name="lowerIsBetter"/);
    const saved = await post(`/en/forms/${form.id}`, fields);
    expect(saved.status, await saved.text()).toBe(302);

    const read = await api("GET", `/api/forms/${form.id}`, { as: "teacher@demo.test" });
    const { title: _title, updatedAt: _updatedAt, ...kept } = form;
    expect(read.body).toMatchObject({ ...kept, title: `${form.title} (edited)` });
  });

  it("given the constants of a change over time in Spanish, should name half a pair and values out of range by their fields, then save them", async () => {
    const title = unique("Constantes");
    const fields = (constants: Record<string, string>) => ({
      title,
      "questions[0].ref": "new-1",
      "questions[0].text": "¿Durmió mal?",
      "questions[0].type": "SINGLE_CHOICE",
      "questions[0].options[0].text": "No",
      "questions[0].options[0].score": "0",
      "questions[0].options[1].text": "Sí",
      "questions[0].options[1].score": "1",
      "subscales[0].key": "sueno",
      "subscales[0].name": "Sueño",
      "subscales[0].method": "SUM",
      "subscales[0].items": "new-1",
      lowerIsBetter: "on",
      remissionBelow: "5",
      intent: "save",
      ...constants,
    });
    const refused = await post(
      "/es/forms/new",
      fields({
        "reliableChange.sd": "4,8",
        "reliableChange.reliability": "",
        "subscales[0].reliableChange.sd": "0",
        "subscales[0].reliableChange.reliability": "1",
      }),
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(errorOf(html, "reliableChange.reliability")).toBe("Escribe la desviación estándar y la fiabilidad, las dos o ninguna.");
    expect(errorOf(html, "reliableChange.sd")).toBeNull();
    expect(errorOf(html, "subscales[0].reliableChange.sd")).toBe("Escribe una desviación estándar mayor que 0.");
    expect(errorOf(html, "subscales[0].reliableChange.reliability")).toBe("Escribe una fiabilidad desde 0 hasta 1, sin incluir el 1.");
    // Every value comes back as typed.
    expect(inputValue(html, "reliableChange.sd")).toBe("4,8");
    expect(inputValue(html, "subscales[0].reliableChange.reliability")).toBe("1");

    const saved = await post(
      "/es/forms/new",
      fields({
        "reliableChange.sd": "4,8",
        "reliableChange.reliability": "0,84",
        "subscales[0].reliableChange.sd": "2,5",
        "subscales[0].reliableChange.reliability": "0,7",
        "subscales[0].remissionBelow": "1",
      }),
    );
    expect(saved.status).toBe(302);
    const id = saved.headers.get("location")!.split("/").pop()!;
    const read = await api("GET", `/api/forms/${id}`, { as: "teacher@demo.test" });
    expect(read.body).toMatchObject({
      reliableChange: { sd: 4.8, reliability: 0.84 },
      remissionBelow: 5,
      lowerIsBetter: true,
      subscales: [{ key: "sueno", reliableChange: { sd: 2.5, reliability: 0.7 }, remissionBelow: 1 }],
    });
  });

  it("given an installed PHQ-9, should show its constants and their sources to read, with no field to change them", async () => {
    const installed = await api("POST", "/api/instruments/phq-9/install", { as: "teacher@demo.test", json: {} });
    expect(installed.status, installed.text).toBe(201);
    const html = await (await fetch(`${baseUrl()}/en/forms/${installed.body.id}`, { headers: { cookie: teacher() } })).text();
    expect(html).toContain("Lower scores are better.");
    expect(html).toContain("Reliable change index: standard deviation 4.8, reliability 0.84; a change of more than 5.3 points is reliable.");
    expect(html).toContain("Remission: a score below 5.");
    expect(html).toContain("Sources: Standard deviation: the PHQ-9 at baseline in the COBRA trial");
    expect(html).not.toMatch(/name="(reliableChange\.sd|reliableChange\.reliability|remissionBelow|lowerIsBetter)"/);
  });

  it("given a published form with links still waiting, should say before unpublishing that it closes them", async () => {
    const form = await api("POST", "/api/forms", { as: "teacher@demo.test", json: mixedForm(unique("Closing")) });
    const student = await api("POST", "/api/students", { as: "teacher@demo.test", json: { name: unique("Waiting") } });
    await api("POST", "/api/submissions", { as: "teacher@demo.test", json: { formId: form.body.id, studentId: student.body.id } });
    const html = await (await fetch(`${baseUrl()}/en/forms/${form.body.id}`, { headers: { cookie: teacher() } })).text();
    expect(html).toContain("1 link is still waiting for answers: unpublishing closes it until you publish again.");
  });

  it("given a colleague's form, should not publish or delete it", async () => {
    const form = await api("POST", "/api/forms", { as: "teacher2@demo.test", json: { ...mixedForm(), isPublished: false } });
    expect((await post(`/en/forms/${form.body.id}`, { intent: "publish" })).status).toBe(404);
    expect((await post(`/en/forms/${form.body.id}/delete`, {})).status).toBe(404);
    const read = await api("GET", `/api/forms/${form.body.id}`, { as: "teacher2@demo.test" });
    expect(read.body).toMatchObject({ isPublished: false, deletedAt: null });
  });
});
