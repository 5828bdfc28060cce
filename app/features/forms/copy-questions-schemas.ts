import { z } from "zod";
import { idNaming, idSchema } from "~/lib/schemas.ts";

/** The most questions a form holds, and so the most one copy appends. */
export const MAX_QUESTIONS = 200;

/** POST /api/forms/:id/questions/copy and the page "Copy questions from another form" (docs/api-contract.md §22). */
export const copyQuestionsBody = z
  .strictObject({
    fromFormId: idNaming("of a form the caller can read: the copies' source."),
    questionIds: z
      .array(idSchema)
      .min(1, "chooseQuestions")
      .max(MAX_QUESTIONS)
      .meta({ description: "Questions of `fromFormId`, copied in this order to the end of the form." }),
  })
  .superRefine((body, ctx) => {
    const seen = new Set<string>();
    body.questionIds.forEach((id, index) => {
      if (seen.has(id)) ctx.addIssue({ code: "custom", path: ["questionIds", index], message: "duplicateId" });
      seen.add(id);
    });
  })
  .meta({ id: "CopyQuestions" });

export type CopyQuestionsInput = z.output<typeof copyQuestionsBody>;
