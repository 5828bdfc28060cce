import { z } from "zod";
import { idSchema } from "~/lib/schemas.ts";

/** An uploaded image's bytes, before it is decoded (docs/api-contract.md §22). */
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
/** The longest side an image is stored with: larger ones are scaled down (ADR 92). */
export const IMAGE_MAX_SIDE = 2000;

/** What the OpenAPI document says the upload's body is; the route reads it with `readFileUpload`. */
export const uploadFormImageBody = z
  .object({
    file: z.string().meta({
      format: "binary",
      description: "PNG, JPEG or WebP, at most 2 MiB (413 above). Turned upright, stripped of every metadata (EXIF, GPS) and re-encoded.",
      examples: ["(the image's bytes)"],
    }),
  })
  .meta({ id: "FormImageUpload" });

export const formImageResponse = z
  .object({
    id: idSchema,
    url: z.string().meta({ description: "Where the form's staff read it; its content never changes, so it may be cached for good." }),
    width: z.number().int(),
    height: z.number().int(),
  })
  .meta({ id: "FormImage" });

/** The alt text of an image: required with one (docs/api-contract.md §22). */
export const IMAGE_ALT_MAX = 500;

/** An image as the public test link shows it: its URL on the link, and its alt text. */
export const linkImage = z
  .object({ url: z.string(), alt: z.string() })
  .nullable()
  .meta({ id: "TestImage", description: "The image shown with it, served on the link itself; null: none." });

/** Where the form's staff read image `imageId` of form `formId`. */
export const formImageUrl = (formId: string, imageId: string) => `/api/forms/${formId}/images/${imageId}`;
/** Where the respondent of link `token` reads image `imageId` of the link's form. */
export const linkImageUrl = (token: string, imageId: string) => `/api/test-link/${token}/images/${imageId}`;

/** A question's or option's image as the test page shows it, with its URL made by `url`. */
export const imageView = (item: { imageId: string | null; imageAlt: string | null }, url: (imageId: string) => string) =>
  item.imageId ? { url: url(item.imageId), alt: item.imageAlt ?? "" } : null;

/** The editor's image of one question, or of one of its options (app/routes/forms.$id.tsx): the file comes with it. */
export const questionImageFields = z.strictObject({
  questionId: idSchema,
  optionId: idSchema.optional(),
  imageAlt: z.string().trim().min(1, "imageAltRequired").max(IMAGE_ALT_MAX),
});
