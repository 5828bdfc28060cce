import { foldForSearch } from "~/lib/search.ts";

/** ASCII, lower-case, accents folded as the search folds them, anything else a single '-': "José Muñoz" → "jose-munoz". */
export function slugify(value: string, fallback = "respondent"): string {
  const slug = foldForSearch(value.normalize("NFKD"))
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 80)
    .replace(/^-+|-+$/g, "");
  return slug || fallback;
}

/** `report-<respondent-slug>-<yyyy-mm-dd>.pdf`, the date being the completion day in UTC. */
export function reportPdfFilename(report: { completedAt: Date; respondent: { name: string } }): string {
  const day = Number.isNaN(report.completedAt.getTime()) ? "undated" : report.completedAt.toISOString().slice(0, 10);
  return `report-${slugify(report.respondent.name)}-${day}.pdf`;
}
