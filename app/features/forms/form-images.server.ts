import sharp, { type Metadata } from "sharp";
import type { Actor } from "~/lib/auth/actor.server.ts";
import { db, type Prisma } from "~/lib/db.server.ts";
import { ApiError, badRequest, fieldProblem, notFound } from "~/lib/problem.server.ts";
import { recordAudit } from "../audit/audit.server.ts";
import type { PdfImage } from "../pdf/report-pdf.server.ts";
import { findEditableForm, readableFormsWhere } from "./forms.server.ts";
import { formImageUrl, IMAGE_MAX_BYTES, IMAGE_MAX_SIDE } from "./form-image-schemas.ts";

/**
 * Images on forms (docs/api-contract.md §22, ADR 92). An upload is decoded by sharp (libvips),
 * whatever its name and declared type say; turned upright by its EXIF orientation; scaled down to
 * at most IMAGE_MAX_SIDE on its longest side; and re-encoded without any of its metadata (EXIF,
 * GPS, XMP, ICC profiles: colours are converted to sRGB): a PNG, or a WebP with transparency, as
 * PNG; a JPEG or another WebP as JPEG: the two formats every browser and jsPDF read. The bytes live
 * in the database.
 */

/** A 2 MiB PNG can hold a 16,000 × 16,000 image of one colour: decoding stops above this. */
const MAX_INPUT_PIXELS = 50_000_000;
const DECODED_FORMATS = new Set(["png", "jpeg", "webp"]);

const notAnImage = () => badRequest("The file is not a PNG, JPEG or WebP image.", [fieldProblem("file", "imageType")]);

export type StoredImage = { contentType: "image/png" | "image/jpeg"; width: number; height: number; bytes: Uint8Array<ArrayBuffer> };

/** The image as stored: decoded, upright, at most IMAGE_MAX_SIDE, its metadata gone, re-encoded. */
export async function normalizeImage(input: Uint8Array): Promise<StoredImage> {
  const options = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" } as const;
  let metadata: Metadata;
  try {
    metadata = await sharp(input, options).metadata();
  } catch {
    throw notAnImage();
  }
  if (!metadata.format || !DECODED_FORMATS.has(metadata.format)) throw notAnImage();
  try {
    const upright = sharp(input, options).rotate().resize({ width: IMAGE_MAX_SIDE, height: IMAGE_MAX_SIDE, fit: "inside", withoutEnlargement: true });
    // A PNG (a drawing, a screenshot) stays lossless, as does a WebP with transparency; the rest is a photo.
    const png = metadata.format === "png" || metadata.hasAlpha;
    const encoded = png ? upright.png({ compressionLevel: 9 }) : upright.jpeg({ quality: 85, mozjpeg: true });
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return {
      contentType: png ? "image/png" : "image/jpeg",
      width: info.width,
      height: info.height,
      bytes: new Uint8Array(data),
    };
  } catch {
    // A file whose header reads but whose pixels do not (cut short, corrupt).
    throw notAnImage();
  }
}

/**
 * Adds an image to a form the caller may change: 413 above 2 MiB, 400 for anything that does not
 * decode as PNG, JPEG or WebP, 409 for an installed instrument (its items are locked).
 */
export async function addFormImage(actor: Actor, formId: string, file: File) {
  const form = await findEditableForm(actor, formId);
  if (form.instrument !== null) {
    throw new ApiError(409, "INSTRUMENT_LOCKED", "This form is a library instrument: its items cannot carry images.", [
      fieldProblem("file", "instrumentLocked"),
    ]);
  }
  if (file.size > IMAGE_MAX_BYTES) {
    throw new ApiError(413, "PAYLOAD_TOO_LARGE", "The image is larger than 2 MiB.", [fieldProblem("file", "fileTooBig", "2 MiB")]);
  }
  if (file.size === 0) throw badRequest("Choose an image.", [fieldProblem("file", "chooseImage")]);
  const image = await normalizeImage(new Uint8Array(await file.arrayBuffer()));
  const stored = await db.$transaction(async (tx) => {
    const row = await tx.formImage.create({
      data: {
        organizationId: form.organizationId,
        formId,
        createdById: actor.userId,
        contentType: image.contentType,
        width: image.width,
        height: image.height,
        bytes: image.bytes,
        byteLength: image.bytes.byteLength,
      },
      select: { id: true, width: true, height: true },
    });
    await recordAudit(tx, { by: actor, action: "form.updated", targetId: formId, organizationId: form.organizationId, details: { imageAdded: row.id } });
    return row;
  });
  return { id: stored.id, url: formImageUrl(formId, stored.id), width: stored.width, height: stored.height };
}

/**
 * The editor's way to give one saved question, or one option of it (`optionId`), an image (a new
 * upload, with its alt text) or to take it away (`change` null), without posting the whole form:
 * the form's content changes with it.
 */
export async function setQuestionImage(
  actor: Actor,
  formId: string,
  target: { questionId: string; optionId?: string | undefined },
  change: { file: File; alt: string } | null,
) {
  const { questionId, optionId } = target;
  const question = await db.question.findFirst({ where: { id: questionId, formId }, select: { id: true } });
  const option = optionId === undefined ? null : await db.option.findFirst({ where: { id: optionId, questionId }, select: { id: true } });
  // The form's own checks come first (404, 403, 409): a question of a form the caller cannot change is not told apart.
  const form = await findEditableForm(actor, formId);
  if (!question) throw notFound("question");
  if (optionId !== undefined && !option) throw notFound("option");
  const image = change ? await addFormImage(actor, formId, change.file) : null;
  const data = { imageId: image?.id ?? null, imageAlt: image ? change!.alt : null };
  await db.$transaction(async (tx) => {
    if (optionId === undefined) await tx.question.update({ where: { id: questionId }, data });
    else await tx.option.update({ where: { id: optionId }, data });
    // In this transaction, so no test link reads the new image with the old content (ADR 33).
    await tx.form.update({ where: { id: formId }, data: { contentVersion: { increment: 1 }, updatedAt: new Date() } });
    await recordAudit(tx, { by: actor, action: "form.updated", targetId: formId, organizationId: form.organizationId, details: { fields: ["questions"] } });
  });
  return image;
}

const servedSelect = { contentType: true, bytes: true } satisfies Prisma.FormImageSelect;

/** An image of a form the caller reads (or of whose results they see): 404 for anything else. */
export async function readFormImage(actor: Actor, formId: string, imageId: string) {
  const image = await db.formImage.findFirst({ where: { id: imageId, formId, form: readableFormsWhere(actor) }, select: servedSelect });
  if (!image) throw notFound("image");
  return image;
}

/**
 * An image of the form of link `token`, for its respondent: never one of another form. Served while
 * the link exists, as its confirmation and review pages do.
 */
export async function readLinkImage(token: string, imageId: string) {
  const image = await db.formImage.findFirst({
    where: { id: imageId, form: { deletedAt: null, submissions: { some: { token, deletedAt: null } } } },
    select: servedSelect,
  });
  if (!image) throw notFound("image");
  return image;
}

/** The response of a stored image: its URL changes with its content (a new upload, a new id), so it is kept for good. */
export function imageResponse(image: { contentType: string; bytes: Uint8Array<ArrayBuffer> }) {
  return new Response(image.bytes, {
    headers: {
      "Content-Type": image.contentType,
      "Content-Length": String(image.bytes.byteLength),
      "Cache-Control": "private, max-age=31536000, immutable",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}

/** Questions `questionIds` that show an image now, of forms not deleted (a question removed since shows none). */
async function questionsWithImages(questionIds: string[]) {
  if (questionIds.length === 0) return [];
  const questions = await db.question.findMany({
    where: { id: { in: questionIds }, imageId: { not: null }, form: { deletedAt: null } },
    select: { id: true, formId: true, imageId: true, imageAlt: true },
  });
  return questions.map((question) => ({ ...question, imageId: question.imageId!, imageAlt: question.imageAlt ?? "" }));
}

/** The images questions `questionIds` show, by question, at the URL the form's staff read them at: what a report page shows beside its answers. */
export async function questionImages(questionIds: string[]): Promise<Record<string, { url: string; alt: string }>> {
  const questions = await questionsWithImages(questionIds);
  return Object.fromEntries(questions.map((q) => [q.id, { url: formImageUrl(q.formId, q.imageId), alt: q.imageAlt }]));
}

/** The same images with their bytes, by question: what a report's PDF prints. */
export async function questionImageFiles(questionIds: string[]): Promise<Record<string, PdfImage>> {
  const questions = await questionsWithImages(questionIds);
  if (questions.length === 0) return {};
  const images = await db.formImage.findMany({
    where: { id: { in: questions.map((q) => q.imageId) } },
    select: { id: true, contentType: true, bytes: true, width: true, height: true },
  });
  const byId = new Map(images.map(({ id, ...image }) => [id, image]));
  return Object.fromEntries(
    questions.flatMap((q) => {
      const image = byId.get(q.imageId);
      return image ? [[q.id, { ...image, alt: q.imageAlt }]] : [];
    }),
  );
}
