import { describe, expect, it } from "vitest";
import { api, baseUrl, postPageForm, sessionOf, unique } from "../support/api.ts";

/** The editor's two shuffling checkboxes (docs/api-contract.md §22) over plain HTTP, without JavaScript. */
const teacher = () => sessionOf("teacher@demo.test");

const post = (path: string, fields: Record<string, string>) => postPageForm(path, fields, teacher());

const question = {
  "questions[0].ref": "new-1",
  "questions[0].text": "Pick one",
  "questions[0].type": "SINGLE_CHOICE",
  "questions[0].options[0].text": "A",
  "questions[0].options[0].score": "0",
  "questions[0].options[1].text": "B",
  "questions[0].options[1].score": "1",
  intent: "save",
};

/** Whether the page's checkbox `name` is ticked. */
const ticked = (html: string, name: string) => new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0].includes("checked") ?? null;

describe("the editor's shuffling settings", () => {
  it("given the boxes ticked on a new form, should save both; unticking one on the editor clears it", async () => {
    const created = await post("/en/forms/new", { title: unique("Shuffled page"), ...question, shuffleQuestions: "on", shuffleOptions: "on" });
    expect(created.status).toBe(302);
    const id = created.headers.get("location")!.split("/").pop()!;
    expect((await api("GET", `/api/forms/${id}`, { as: "teacher@demo.test" })).body).toMatchObject({ shuffleQuestions: true, shuffleOptions: true });

    const editor = await (await fetch(`${baseUrl()}/en/forms/${id}`, { headers: { cookie: teacher() } })).text();
    expect(editor).toContain("Shuffle the questions");
    expect([ticked(editor, "shuffleQuestions"), ticked(editor, "shuffleOptions")]).toEqual([true, true]);

    const read = (await api("GET", `/api/forms/${id}`, { as: "teacher@demo.test" })).body;
    const saved = await post(`/en/forms/${id}`, {
      title: read.title,
      ...question,
      "questions[0].id": read.questions[0].id,
      "questions[0].ref": read.questions[0].id,
      "questions[0].options[0].id": read.questions[0].options[0].id,
      "questions[0].options[1].id": read.questions[0].options[1].id,
      shuffleOptions: "on",
    });
    expect(saved.status).toBe(302);
    expect((await api("GET", `/api/forms/${id}`, { as: "teacher@demo.test" })).body).toMatchObject({ shuffleQuestions: false, shuffleOptions: true });
  });
});
