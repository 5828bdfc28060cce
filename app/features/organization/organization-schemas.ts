import { z } from "zod";
import { isValidTimeZone } from "~/i18n/format.ts";
import { idSchema, singleLineText, timestamp } from "~/lib/schemas.ts";

/** An IANA time zone name the server's Intl knows (`Europe/Madrid`, `America/Sao_Paulo`, `UTC`). */
export const timeZoneName = z
  .string({ error: "timeZone" })
  .trim()
  .refine((value) => isValidTimeZone(value), "timeZone")
  // Stored as Intl spells it (`europe/madrid` → `Europe/Madrid`).
  .transform((value) => new Intl.DateTimeFormat("en", { timeZone: value }).resolvedOptions().timeZone)
  .meta({ description: "IANA time zone name.", examples: ["Europe/Madrid"] });

/** PUT /api/organization: an administrator renames the organization or changes its time zone. */
export const updateOrganizationBody = z
  .strictObject({
    name: singleLineText(200, "nameRequired")
      .optional()
      .meta({ examples: ["Escola Aurora"] }),
    timeZone: timeZoneName.optional(),
  })
  .meta({ id: "OrganizationUpdate" });
export type UpdateOrganizationInput = z.output<typeof updateOrganizationBody>;

export const organizationResponse = z
  .object({
    id: idSchema,
    name: z.string(),
    timeZone: z.string().meta({ description: "Date-only inputs are whole days in this zone, and pages show dates in it." }),
    updatedAt: timestamp,
  })
  .meta({ id: "Organization" });
