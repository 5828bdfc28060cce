import anyAscii from "any-ascii";
import { foldForSearch } from "~/lib/search.ts";

/**
 * ASCII, lower-case, anything else a single '-': accents folded as the search folds them ("José
 * Muñoz" → "jose-munoz"), other scripts transliterated by any-ascii ("王小明" → "wangxiaoming",
 * "محمد الأحمد" → "mhmd-l-hmd").
 */
export function slugify(value: string, fallback = "respondent"): string {
  const slug = foldForSearch(anyAscii(foldForSearch(value.normalize("NFKD"))))
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 80)
    .replace(/^-+|-+$/g, "");
  return slug || fallback;
}

/** The name in its own script for `filename*`: letters, marks and digits of any script, lower-case, anything else a single '-'. */
function unicodeSlug(value: string, fallback: string): string {
  const slug = Array.from(
    value
      .normalize("NFC")
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}]+/gu, "-")
      .replace(/^-+|-+$/g, ""),
  )
    .slice(0, 80)
    .join("")
    .replace(/-+$/, "");
  return slug || fallback;
}

const completionDay = (completedAt: Date) => (Number.isNaN(completedAt.getTime()) ? "undated" : completedAt.toISOString().slice(0, 10));

/** `report-<respondent-slug>-<yyyy-mm-dd>.pdf`, ASCII, the date being the completion day in UTC. */
export function reportPdfFilename(report: { completedAt: Date; respondent: { name: string } }): string {
  return `report-${slugify(report.respondent.name)}-${completionDay(report.completedAt)}.pdf`;
}

/** The same name with the respondent's name as written (any script): `filename*`'s value before encoding. */
export function reportPdfUnicodeFilename(report: { completedAt: Date; respondent: { name: string } }): string {
  return `report-${unicodeSlug(report.respondent.name, slugify(report.respondent.name))}-${completionDay(report.completedAt)}.pdf`;
}

/** RFC 5987's encoding of a parameter value: UTF-8, with every byte outside attr-char percent-encoded. */
const encodeRfc5987 = (value: string) => encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * The Content-Disposition of a report's PDF download (RFC 6266): the ASCII `filename` every client
 * reads, and `filename*` in UTF-8, which browsers prefer, with the name in its own script.
 */
export function reportPdfContentDisposition(report: { completedAt: Date; respondent: { name: string } }): string {
  return `attachment; filename="${reportPdfFilename(report)}"; filename*=UTF-8''${encodeRfc5987(reportPdfUnicodeFilename(report))}`;
}
