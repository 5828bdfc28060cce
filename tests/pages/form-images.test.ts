import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { api, baseUrl, type DemoUser, sessionOf, withCsrf } from "../support/api.ts";
import { assign, createForm, createStudent, mediumAnswers, mixedForm } from "../support/assessment.ts";

const TEACHER: DemoUser = "teacher@demo.test";
const greenSquare = () =>
  sharp({ create: { width: 30, height: 30, channels: 3, background: { r: 26, g: 127, b: 55 } } })
    .png()
    .toBuffer();

/** The editor's small image form of one question, posted as a browser without JavaScript posts it (multipart). */
function postImageForm(formId: string, fields: Record<string, string>, file?: Uint8Array) {
  const { cookie, "x-csrf-token": csrfToken } = withCsrf(sessionOf(TEACHER));
  const body = new FormData();
  for (const [name, value] of Object.entries({ ...fields, csrfToken: csrfToken! })) body.set(name, value);
  body.set(
    "file",
    file ? new File([file as Uint8Array<ArrayBuffer>], "square.png", { type: "image/png" }) : new File([], "", { type: "application/octet-stream" }),
  );
  return fetch(`${baseUrl()}/en/forms/${formId}`, { method: "POST", headers: { cookie: cookie!, origin: baseUrl() }, body, redirect: "manual" });
}

describe("images on the pages", () => {
  it("given the editor without JavaScript, should add a question's image with its description, refuse one without, and remove it", async () => {
    const form = await createForm(TEACHER, { ...mixedForm(), isPublished: true });
    const questionId = form.questions[0]!.id;
    const editor = await (await fetch(`${baseUrl()}/en/forms/${form.id}`, { headers: { cookie: sessionOf(TEACHER) } })).text();
    // Its own small form, outside the editor's (forms do not nest), posting multipart.
    expect(new RegExp(`<form[^>]*id="image-form-${questionId}"[^>]*`).exec(editor)?.[0]).toMatch(/enctype="multipart\/form-data"/i);

    const noAlt = await postImageForm(form.id, { intent: "image", questionId, imageAlt: " " }, await greenSquare());
    expect(noAlt.status).toBe(400);
    expect(await noAlt.text()).toContain("Describe the image for those who cannot see it.");
    const noFile = await postImageForm(form.id, { intent: "image", questionId, imageAlt: "A green square" });
    expect(noFile.status).toBe(400);
    expect(await noFile.text()).toContain("Choose an image.");

    const added = await postImageForm(form.id, { intent: "image", questionId, imageAlt: "A green square" }, await greenSquare());
    expect(added.status).toBe(302);
    const stored = (await api("GET", `/api/forms/${form.id}`, { as: TEACHER })).body.questions[0];
    expect(stored).toMatchObject({ imageId: expect.any(String), imageAlt: "A green square" });

    // The respondent's page shows it with its alt text, on the link's own URL; so does the preview.
    const student = await createStudent(TEACHER);
    const link = await assign(TEACHER, { formId: form.id, studentId: student.id });
    const page = await (await fetch(`${baseUrl()}/en/test/${link.token}`)).text();
    expect(page).toMatch(new RegExp(`<img src="/api/test-link/${link.token}/images/${stored.imageId}" alt="A green square"[^>]*class="[^"]*max-w-full`));
    const preview = await (await fetch(`${baseUrl()}/en/forms/${form.id}/preview`, { headers: { cookie: sessionOf(TEACHER) } })).text();
    expect(preview).toContain(`<img src="/api/forms/${form.id}/images/${stored.imageId}" alt="A green square"`);

    // The report shows it beside the answer, and its PDF prints it.
    const submit = await api("POST", `/api/test-link/${link.token}/submit`, { json: mediumAnswers(form) });
    expect(submit.status, submit.text).toBe(200);
    const report = await (await fetch(`${baseUrl()}/en/reports/${submit.body.submissionId}`, { headers: { cookie: sessionOf(TEACHER) } })).text();
    expect(report).toContain(`<img src="/api/forms/${form.id}/images/${stored.imageId}" alt="A green square"`);
    const pdf = await fetch(`${baseUrl()}/en/reports/${submit.body.submissionId}/pdf`, { headers: { cookie: sessionOf(TEACHER) } });
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await pdf.arrayBuffer()).toString("latin1")).toMatch(/\/Subtype \/Image/);

    const removed = await postImageForm(form.id, { intent: "removeImage", questionId });
    expect(removed.status).toBe(302);
    expect((await api("GET", `/api/forms/${form.id}`, { as: TEACHER })).body.questions[0]).toMatchObject({ imageId: null, imageAlt: null });
  });

  it("given an option of a saved question, should add its image with its description through its own small form, refuse one without, and remove it", async () => {
    const form = await createForm(TEACHER, { ...mixedForm(), isPublished: true });
    const question = form.questions[0]!;
    const option = question.options[1]!;
    const editor = await (await fetch(`${baseUrl()}/en/forms/${form.id}`, { headers: { cookie: sessionOf(TEACHER) } })).text();
    const smallForm = new RegExp(`<form[^>]*id="image-form-${option.id}"[^>]*>[\\s\\S]*?</form>`).exec(editor)?.[0];
    expect(smallForm).toMatch(/enctype="multipart\/form-data"/i);
    expect(smallForm).toContain(`name="optionId" value="${option.id}"`);
    expect(editor).toContain("Images of the options");

    const target = { questionId: question.id, optionId: option.id };
    const noAlt = await postImageForm(form.id, { intent: "image", ...target, imageAlt: "" }, await greenSquare());
    expect(noAlt.status).toBe(400);
    const refused = await noAlt.text();
    // The question's options' images open on the refused one, its message by its field.
    expect(refused).toMatch(/<details[^>]*open=""[^>]*data-testid="option-images-1"/);
    expect(refused).toContain("Describe the image for those who cannot see it.");

    const added = await postImageForm(form.id, { intent: "image", ...target, imageAlt: "A green square" }, await greenSquare());
    expect(added.status).toBe(302);
    const stored = (await api("GET", `/api/forms/${form.id}`, { as: TEACHER })).body.questions[0];
    expect(stored).toMatchObject({ imageId: null, options: [{ imageId: null }, { imageId: expect.any(String), imageAlt: "A green square" }] });
    const imageId = stored.options[1].imageId;
    expect(await (await fetch(`${baseUrl()}/en/forms/${form.id}`, { headers: { cookie: sessionOf(TEACHER) } })).text()).toContain(
      `<img src="/api/forms/${form.id}/images/${imageId}" alt="A green square"`,
    );
    const student = await createStudent(TEACHER);
    const link = await assign(TEACHER, { formId: form.id, studentId: student.id });
    expect(await (await fetch(`${baseUrl()}/en/test/${link.token}`)).text()).toContain(
      `<img src="/api/test-link/${link.token}/images/${imageId}" alt="A green square"`,
    );

    // An option of another question is no option of this one.
    const elsewhere = await postImageForm(form.id, { intent: "removeImage", questionId: form.questions[1]!.id, optionId: option.id });
    expect(elsewhere.status).toBe(404);
    const removed = await postImageForm(form.id, { intent: "removeImage", ...target });
    expect(removed.status).toBe(302);
    expect((await api("GET", `/api/forms/${form.id}`, { as: TEACHER })).body.questions[0].options[1]).toMatchObject({ imageId: null, imageAlt: null });
  });
});
