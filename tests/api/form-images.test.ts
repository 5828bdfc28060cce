import exifr from "exifr";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { api, baseUrl, type DemoUser, postPageForm, sessionOf } from "../support/api.ts";
import { assign, createForm, createStudent, mixedForm } from "../support/assessment.ts";
import { errorPaths, expectProblem } from "../support/fixtures.ts";

const TEACHER: DemoUser = "teacher@demo.test";
const IMMUTABLE = "private, max-age=31536000, immutable";

type ReadQuestion = { id: string; text: string; type: string; required: boolean; options: { id: string; text: string; score: number }[] };

/** A question as read, as a PUT keeps it: its ids, texts and scores, and nothing about its image. */
const kept = ({ id, text, type, required, options }: ReadQuestion) => ({
  id,
  text,
  type,
  required,
  options: options.map(({ id, text, score }) => ({ id, text, score })),
});

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 26, g: 127, b: 55 } } });

function upload(formId: string, bytes: Uint8Array, name = "picture.png", as: DemoUser = TEACHER, type = "image/png") {
  const body = new FormData();
  body.set("file", new File([bytes as Uint8Array<ArrayBuffer>], name, { type }));
  return api("POST", `/api/forms/${formId}/images`, { as, body });
}

/** The served image's bytes, with its response. */
async function served(path: string, cookie?: string) {
  const response = await fetch(new URL(path, baseUrl()), { headers: cookie ? { cookie } : {} });
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

/** A published form of the teacher's with its first question showing `imageId`, and a link to it. */
async function linkShowing(formId: string, imageId: string) {
  const form = (await api("GET", `/api/forms/${formId}`, { as: TEACHER })).body;
  const questions = (form.questions as ReadQuestion[]).map((question, index) => ({
    ...kept(question),
    ...(index === 0 ? { imageId, imageAlt: "A green square" } : {}),
  }));
  const updated = await api("PUT", `/api/forms/${formId}`, { as: TEACHER, json: { questions, isPublished: true } });
  expect(updated.status, updated.text).toBe(200);
  const student = await createStudent(TEACHER);
  return assign(TEACHER, { formId, studentId: student.id });
}

describe("images on forms", () => {
  it("given a question with an image copied to another form, should give the copy an image of that form, served to its links and not to the source's", async () => {
    const source = await createForm(TEACHER, { ...mixedForm(), isPublished: true });
    const created = await upload(source.id, await solid(8, 6).png().toBuffer());
    expect(created.status, created.text).toBe(201);
    const sourceLink = await linkShowing(source.id, created.body.id);
    const target = await createForm(TEACHER, { ...mixedForm(), isPublished: true });
    const copied = await api("POST", `/api/forms/${target.id}/questions/copy`, {
      as: TEACHER,
      json: { fromFormId: source.id, questionIds: [source.questions[0]!.id] },
    });
    expect(copied.status, copied.text).toBe(200);
    const copy = copied.body.questions.at(-1) as { imageId: string; imageAlt: string };
    expect(copy.imageAlt).toBe("A green square");
    expect(copy.imageId).not.toBe(created.body.id);
    // The target saves as it is (its copy names an image of its own), and its links are served it.
    const targetLink = await linkShowing(target.id, copy.imageId);
    expect((await api("GET", `/api/test-link/${targetLink.token}/images/${copy.imageId}`)).status).toBe(200);
    expect((await api("GET", `/api/test-link/${sourceLink.token}/images/${copy.imageId}`)).status).toBe(404);
  });

  it("given a PNG, should store it (201), serve it back to the form's staff and to the form's link, with a long cache lifetime", async () => {
    const form = await createForm(TEACHER, { ...mixedForm(), isPublished: true });
    const png = await solid(40, 30).png().toBuffer();
    const created = await upload(form.id, png);
    expect(created.status, created.text).toBe(201);
    expect(created.body).toEqual({ id: expect.any(String), url: `/api/forms/${form.id}/images/${created.body.id}`, width: 40, height: 30 });
    expect(created.headers.get("location")).toBe(created.body.url);

    const staff = await api("GET", created.body.url, { as: TEACHER });
    expect(staff.status).toBe(200);
    expect(staff.headers.get("content-type")).toBe("image/png");
    expect(staff.headers.get("cache-control")).toBe(IMMUTABLE);
    expect(staff.headers.get("x-content-type-options")).toBe("nosniff");
    // Without a session: nothing.
    expect((await api("GET", created.body.url)).status).toBe(401);

    const link = await linkShowing(form.id, created.body.id);
    const read = await api("GET", `/api/forms/${form.id}`, { as: TEACHER });
    expect(read.body.questions[0]).toMatchObject({ imageId: created.body.id, imageAlt: "A green square" });
    expect(read.body.questions[1]).toMatchObject({ imageId: null, imageAlt: null });

    const test = await api("GET", `/api/test-link/${link.token}`);
    expect(test.status).toBe(200);
    const image = test.body.form.questions[0].image;
    expect(image).toEqual({ url: `/api/test-link/${link.token}/images/${created.body.id}`, alt: "A green square" });
    expect(test.body.form.questions[1].image).toBeNull();
    const respondent = await served(image.url);
    expect(respondent.response.status).toBe(200);
    expect(respondent.response.headers.get("cache-control")).toBe(IMMUTABLE);
    expect(respondent.response.headers.get("referrer-policy")).toBe("no-referrer");
    const metadata = await sharp(respondent.bytes).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(["png", 40, 30]);
  });

  it("given a phone photo with GPS and a rotation in its EXIF, should store it upright with no EXIF at all", async () => {
    const form = await createForm(TEACHER);
    const photo = await solid(64, 48)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({
        IFD0: { Make: "PhoneCo", Model: "Phone 12", Orientation: "6" },
        IFD3: { GPSLatitudeRef: "N", GPSLatitude: "40/1 25/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "3/1 42/1 0/1" },
      })
      .toBuffer();
    // The fixture carries what a phone writes.
    expect(await exifr.gps(photo)).toMatchObject({ latitude: expect.closeTo(40.4167, 3), longitude: expect.closeTo(-3.7, 3) });
    expect(await exifr.parse(photo)).toMatchObject({ Make: "PhoneCo", Orientation: "Rotate 90 CW" });

    const created = await upload(form.id, photo, "IMG_0001.jpg", TEACHER, "image/jpeg");
    expect(created.status, created.text).toBe(201);
    // Turned by its orientation: 64 × 48 lying on its side is 48 × 64.
    expect([created.body.width, created.body.height]).toEqual([48, 64]);
    const { response, bytes } = await served(created.body.url, sessionOf(TEACHER));
    expect(response.headers.get("content-type")).toBe("image/jpeg");
    expect(await exifr.parse(bytes)).toBeUndefined();
    expect(await exifr.gps(bytes)).toBeUndefined();
    const metadata = await sharp(bytes).metadata();
    expect([metadata.width, metadata.height, metadata.exif, metadata.orientation]).toEqual([48, 64, undefined, undefined]);
  });

  it("given a file of 2 MiB and one byte, should answer 413", async () => {
    const form = await createForm(TEACHER);
    const big = new Uint8Array(2 * 1024 * 1024 + 1);
    big.set(await solid(4, 4).png().toBuffer());
    const response = await upload(form.id, big);
    expectProblem(response, 413, "PAYLOAD_TOO_LARGE");
    expect(errorPaths(response)).toEqual(["file"]);
  });

  it("given a PDF renamed .png, should answer 400 naming the file", async () => {
    const form = await createForm(TEACHER);
    const pdf = new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n");
    const response = await upload(form.id, pdf, "scan.png");
    expectProblem(response, 400, "VALIDATION_FAILED");
    expect(response.body.errors).toEqual([{ path: "file", message: "Choose a PNG, JPEG or WebP image." }]);
  });

  it("given another organization's form, should answer 404 to its uploads and its images", async () => {
    const form = await createForm(TEACHER);
    const created = await upload(form.id, await solid(8, 8).png().toBuffer());
    expect(created.status).toBe(201);
    expectProblem(await upload(form.id, await solid(8, 8).png().toBuffer(), "x.png", "admin@other.test"), 404);
    expectProblem(await api("GET", created.body.url, { as: "admin@other.test" }), 404);
    // A colleague who may not change it (another teacher) is refused; an administrator may.
    expectProblem(await upload(form.id, await solid(8, 8).png().toBuffer(), "x.png", "teacher2@demo.test"), 404);
    expect((await upload(form.id, await solid(8, 8).png().toBuffer(), "x.png", "admin@demo.test")).status).toBe(201);
  });

  it("given a link of another form, should never serve it this form's image (404)", async () => {
    const first = await createForm(TEACHER, { ...mixedForm(), isPublished: true });
    const image = (await upload(first.id, await solid(8, 8).png().toBuffer())).body;
    const own = await linkShowing(first.id, image.id);
    const other = await createForm(TEACHER, { ...mixedForm(), isPublished: true });
    const student = await createStudent(TEACHER);
    const otherLink = await assign(TEACHER, { formId: other.id, studentId: student.id });

    expect((await served(`/api/test-link/${own.token}/images/${image.id}`)).response.status).toBe(200);
    const refused = await api("GET", `/api/test-link/${otherLink.token}/images/${image.id}`);
    expectProblem(refused, 404);
    expectProblem(await api("GET", `/api/test-link/not-a-real-token-at-all-0000/images/${image.id}`), 404);
    // Nor through the other form's staff URL.
    expectProblem(await api("GET", `/api/forms/${other.id}/images/${image.id}`, { as: TEACHER }), 404);
  });

  it("given an image without its alt text, or an image of another form, should answer 400 naming the field", async () => {
    const form = await createForm(TEACHER);
    const other = await createForm(TEACHER);
    const image = (await upload(form.id, await solid(8, 8).png().toBuffer())).body;
    const foreign = (await upload(other.id, await solid(8, 8).png().toBuffer())).body;
    const questions: Record<string, unknown>[] = structuredClone(mixedForm().questions);
    const put = () => api("PUT", `/api/forms/${form.id}`, { as: TEACHER, json: { questions } });
    questions[0] = { ...questions[0], imageId: image.id };
    const noAlt = await put();
    expectProblem(noAlt, 400);
    expect(errorPaths(noAlt)).toEqual(["questions.0.imageAlt"]);

    const options = (questions[1]!.options as Record<string, unknown>[]).map((option, index) =>
      index === 0 ? { ...option, imageId: image.id, imageAlt: "  " } : option,
    );
    questions[0] = { ...questions[0], imageAlt: "A picture" };
    questions[1] = { ...questions[1], options };
    expect(errorPaths(await put())).toEqual(["questions.1.options.0.imageAlt"]);

    questions[1] = { ...questions[1], options: [{ ...options[0], imageId: foreign.id, imageAlt: "Other" }, ...options.slice(1)] };
    const otherForms = await put();
    expectProblem(otherForms, 400);
    expect(errorPaths(otherForms)).toEqual(["questions.1.options.0.imageId"]);

    // With both, the option's image is kept; a later PUT that leaves images out keeps them.
    questions[1] = { ...questions[1], options: [{ ...options[0], imageAlt: "An option's picture" }, ...options.slice(1)] };
    const saved = await put();
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.questions[1].options[0]).toMatchObject({ imageId: image.id, imageAlt: "An option's picture" });
    const again = await api("PUT", `/api/forms/${form.id}`, { as: TEACHER, json: { questions: (saved.body.questions as ReadQuestion[]).map(kept) } });
    expect(again.body.questions[0]).toMatchObject({ imageId: image.id, imageAlt: "A picture" });
    expect(again.body.questions[1].options[0]).toMatchObject({ imageId: image.id, imageAlt: "An option's picture" });

    // A copy of the form (the editor's Duplicate) has copies of its images, served under the copy.
    const duplicated = await postPageForm(`/en/forms/${form.id}`, { intent: "duplicate" }, sessionOf(TEACHER));
    expect(duplicated.status).toBe(302);
    const copyId = duplicated.headers.get("location")!.split("/").pop()!;
    const copy = (await api("GET", `/api/forms/${copyId}`, { as: TEACHER })).body;
    const copied = copy.questions[0].imageId;
    expect(copied).toEqual(expect.any(String));
    expect(copied).not.toBe(image.id);
    expect(copy.questions[1].options[0].imageId).toBe(copied);
    expect((await api("GET", `/api/forms/${copyId}/images/${copied}`, { as: TEACHER })).status).toBe(200);
  });

  it("given an installed instrument, should refuse images (409)", async () => {
    const installed = await api("POST", "/api/instruments/phq-9/install", { as: TEACHER, json: {} });
    expect(installed.status, installed.text).toBe(201);
    expectProblem(await upload(installed.body.id, await solid(8, 8).png().toBuffer()), 409, "INSTRUMENT_LOCKED");
  });
});
