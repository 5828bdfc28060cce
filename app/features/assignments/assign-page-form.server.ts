import { z } from "zod";

/**
 * The "Assign a test" page's form. Its respondent select posts `student:<id>`, `candidate:<id>`
 * or `group:<id>` (the whole group at once), so the API's body (`createSubmissionBody`) is built
 * from it, not posted as is. Its expiry is a day: the link works to the end of that day in the
 * organization's time zone, which the service resolves (and refuses when already past).
 */
const expiryDay = z.iso.date({ error: "date" });

export const assignPageForm = z.object({
  formId: z.string({ error: "chooseForm" }).min(1, "chooseForm"),
  respondent: z
    .string({ error: "chooseRespondent" })
    .regex(/^(student|candidate|group):[^:\s]+$/, "chooseRespondent")
    .transform((value) => {
      const [kind, id] = value.split(":") as ["student" | "candidate" | "group", string];
      return kind === "student" ? { studentId: id } : kind === "candidate" ? { candidateId: id } : { groupId: id };
    }),
  expiresAt: expiryDay.optional(),
  /** E-mail the link(s) now, and remind those still waiting after so many days. */
  send: z.boolean().optional(),
  remindAfterDays: z.number({ error: "wholeNumber" }).int("wholeNumber").min(1, "tooSmall").max(60, "tooBig").optional(),
});

/** The assignment page's "change the expiry" form: a new last day, or none when left empty. */
export const expiryPageForm = z.object({ expiresAt: expiryDay.optional() });
