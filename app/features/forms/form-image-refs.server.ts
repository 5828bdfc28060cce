import type { Actor } from "~/lib/auth/actor.server.ts";
import type { Prisma } from "~/lib/db.server.ts";
import { fieldProblem, type FieldProblem } from "~/lib/problem.server.ts";

/** The images questions and options of a form's body name (docs/api-contract.md §22, ADR 92). */
type ImageRefs = { imageId?: string | null | undefined; options: { imageId?: string | null | undefined }[] }[];

/**
 * The images a body's questions and options name that are not images of form `formId`, as 400
 * problems at their fields (`questions.0.imageId`), checked before anything is written.
 */
export async function foreignImageProblems(client: Prisma.TransactionClient, formId: string, questions: ImageRefs): Promise<FieldProblem[]> {
  const named = questions.flatMap((question, qi) => [
    ...(question.imageId ? [{ path: `questions.${qi}.imageId`, id: question.imageId }] : []),
    ...question.options.flatMap((option, oi) => (option.imageId ? [{ path: `questions.${qi}.options.${oi}.imageId`, id: option.imageId }] : [])),
  ]);
  if (named.length === 0) return [];
  const found = await client.formImage.findMany({ where: { formId, id: { in: [...new Set(named.map((n) => n.id))] } }, select: { id: true } });
  const own = new Set(found.map((image) => image.id));
  return named.filter((n) => !own.has(n.id)).map((n) => fieldProblem(n.path, "notAFormImage"));
}

/**
 * The questions of a copy of form `fromFormId` (into form `toFormId`, in `tx`), naming copies of
 * the images they named: an image belongs to one form, so that a link of one form is never served
 * an image of another.
 */
export async function withCopiedImages<Q extends ImageRefs[number]>(
  tx: Prisma.TransactionClient,
  actor: Actor,
  fromFormId: string,
  toFormId: string,
  questions: Q[],
): Promise<Q[]> {
  const named = questions.flatMap((question) => [question.imageId, ...question.options.map((option) => option.imageId)]).filter((id): id is string => !!id);
  if (named.length === 0) return questions;
  const images = await tx.formImage.findMany({ where: { formId: fromFormId, id: { in: [...new Set(named)] } } });
  const copies = new Map<string, string>();
  for (const { id, createdAt: _, createdById: __, formId: ___, ...image } of images) {
    const copy = await tx.formImage.create({ data: { ...image, formId: toFormId, createdById: actor.userId }, select: { id: true } });
    copies.set(id, copy.id);
  }
  // An id that is no image of the source stays as it is, for the form's own check to refuse.
  const copied = (id: string | null | undefined) => (id ? (copies.get(id) ?? id) : id);
  return questions.map((question) => ({
    ...question,
    imageId: copied(question.imageId),
    options: question.options.map((option) => ({ ...option, imageId: copied(option.imageId) })),
  }));
}
