import { z } from "zod";
import { isValidTimeZone } from "~/i18n/format.ts";
import { idSchema, singleLineText, timestamp, typedText } from "~/lib/schemas.ts";
import { retentionPolicy, retentionPolicyInput } from "../retention/retention-schemas.ts";
import { ORGANIZATION_KINDS } from "./organization-kinds.ts";
import { PRIVACY_NOTICE_MAX } from "./privacy-notice.ts";

/** An IANA time zone name the server's Intl knows (`Europe/Madrid`, `America/Sao_Paulo`, `UTC`). */
export const timeZoneName = z
  .string({ error: "timeZone" })
  .trim()
  .refine((value) => isValidTimeZone(value), "timeZone")
  // Stored as Intl spells it (`europe/madrid` → `Europe/Madrid`).
  .transform((value) => new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone)
  .meta({ description: "IANA time zone name.", examples: ["Europe/Madrid"] });

/** SCHOOL or CLINIC (docs/api-contract.md §18). */
export const organizationKind = z.enum(ORGANIZATION_KINDS, { error: "choice" }).meta({
  description: "SCHOOL or CLINIC: a clinic's pages, e-mails and PDFs say patient words where a school's say student words. The API is the same for both.",
});

/** One privacy notice's text: what a respondent reads, line breaks kept. */
const noticeText = typedText(PRIVACY_NOTICE_MAX);

/** The privacy notice given per language, as the settings page posts it. */
export const privacyNoticeTexts = z
  .strictObject({ en: noticeText.optional(), es: noticeText.optional(), "pt-BR": noticeText.optional() })
  .meta({ description: "One text per language the pages speak." });

/**
 * The privacy notice (docs/api-contract.md §21, ADR 89): one text for every language, or one per
 * language; a language left out (or empty) reads the organization's default (English, else the
 * first given).
 */
export const privacyNoticeInput = z.union([noticeText, privacyNoticeTexts]).meta({
  description: `What respondents read about how their answers are handled, on every public test page: one text for every language, or {en, es, "pt-BR"}, each at most ${PRIVACY_NOTICE_MAX.toLocaleString("en-US")} characters. A language left out shows English, else the first language given. Null or empty: none.`,
  examples: ["Escola Aurora keeps your answers for 24 months. Write to privacy@aurora.example to see or erase them."],
});

/** PUT /api/organization: an administrator renames the organization, changes its time zone or kind, its retention policy or its privacy notice. */
export const updateOrganizationBody = z
  .strictObject({
    name: singleLineText(200, "nameRequired")
      .optional()
      .meta({ examples: ["Escola Aurora"] }),
    timeZone: timeZoneName.optional(),
    kind: organizationKind.optional(),
    retention: retentionPolicyInput
      .nullable()
      .optional()
      .meta({ description: "The retention policy, replaced whole (docs/api-contract.md §21); null: everything is kept for ever." }),
    privacyNotice: privacyNoticeInput.nullable().optional(),
  })
  .meta({ id: "OrganizationUpdate" });
export type UpdateOrganizationInput = z.output<typeof updateOrganizationBody>;

/** The privacy notice as the API answers it: as it was given, each text trimmed and empty languages left out. */
export const privacyNoticeOutput = z
  .union([z.string(), z.object({ en: z.string().optional(), es: z.string().optional(), "pt-BR": z.string().optional() })])
  .nullable()
  .meta({
    description:
      "The organization's privacy notice as it was given (docs/api-contract.md §21): one text for every language, or one per language (a language left out reads English, else the first given); null: none.",
  });

export const organizationResponse = z
  .object({
    id: idSchema,
    name: z.string(),
    timeZone: z.string().meta({ description: "Date-only inputs are whole days in this zone, and pages show dates in it." }),
    kind: organizationKind,
    retention: retentionPolicy.nullable().meta({ description: "The retention policy; null: everything is kept for ever." }),
    privacyNotice: privacyNoticeOutput,
    updatedAt: timestamp,
  })
  .meta({ id: "Organization" });
