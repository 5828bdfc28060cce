import { z } from "zod";
import { isValidTimeZone } from "~/i18n/format.ts";
import { idSchema, singleLineText, timestamp } from "~/lib/schemas.ts";
import { ORGANIZATION_KINDS } from "./organization-kinds.ts";

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

/** PUT /api/organization: an administrator renames the organization or changes its time zone or kind. */
export const updateOrganizationBody = z
  .strictObject({
    name: singleLineText(200, "nameRequired")
      .optional()
      .meta({ examples: ["Escola Aurora"] }),
    timeZone: timeZoneName.optional(),
    kind: organizationKind.optional(),
  })
  .meta({ id: "OrganizationUpdate" });
export type UpdateOrganizationInput = z.output<typeof updateOrganizationBody>;

export const organizationResponse = z
  .object({
    id: idSchema,
    name: z.string(),
    timeZone: z.string().meta({ description: "Date-only inputs are whole days in this zone, and pages show dates in it." }),
    kind: organizationKind,
    updatedAt: timestamp,
  })
  .meta({ id: "Organization" });
