import type { Actor } from "~/lib/auth/actor.server.ts";
import { db } from "~/lib/db.server.ts";
import { conflict, notFound } from "~/lib/problem.server.ts";
import { imageView, linkImageUrl } from "../forms/form-image-schemas.ts";
import { answeredCorrectly, isKeyed } from "../scoring/answer-key.ts";
import type { TestLinkReview } from "./review-schemas.ts";
import { readScoredAgainst } from "./scored-against.ts";
import { TOKEN_SHAPE } from "./test-link.server.ts";

/**
 * The respondent's review of a completed link (docs/api-contract.md §22): their answers, which were
 * correct, the key and the feedback. When it opens is the form's current `review` policy, read with
 * the link; what it shows is the result's snapshot (`scoredAgainst`), so a key changed since the
 * answers were sent does not change what they are reviewed against, and the answers as stored.
 */

type ReviewPolicy = "NEVER" | "AFTER_SUBMIT" | "AFTER_CLOSE";

const reviewNotAvailable = () => conflict("The review of these answers is not available.", "REVIEW_NOT_AVAILABLE");

/**
 * Whether a link's review is open at `now`: never before the answers are sent; then at once
 * (AFTER_SUBMIT), or once the test has closed, its form unpublished or the link expired
 * (AFTER_CLOSE); never under NEVER.
 */
export function reviewIsOpen(link: { isCompleted: boolean; expiresAt: Date | null }, form: { review: ReviewPolicy; isPublished: boolean }, now: Date): boolean {
  if (!link.isCompleted) return false;
  if (form.review === "AFTER_SUBMIT") return true;
  if (form.review === "AFTER_CLOSE") return !form.isPublished || (link.expiresAt !== null && link.expiresAt.getTime() <= now.getTime());
  return false;
}

/** The link with what decides its review, or 404 as its other operations answer: unknown, deleted, or its form or respondent deleted. */
async function findLink(token: string) {
  if (!TOKEN_SHAPE.test(token)) throw notFound("test link");
  const link = await db.submission.findUnique({
    where: { token },
    select: {
      id: true,
      isCompleted: true,
      expiresAt: true,
      deletedAt: true,
      scoredAgainst: true,
      totalScore: true,
      maxScore: true,
      percentage: true,
      form: { select: { review: true, isPublished: true, deletedAt: true } },
      student: { select: { deletedAt: true, userId: true } },
      candidate: { select: { deletedAt: true } },
    },
  });
  // After a promotion the student is the respondent.
  const respondent = link?.student ?? link?.candidate;
  if (!link || link.deletedAt || link.form.deletedAt || !respondent || respondent.deletedAt) throw notFound("test link");
  return link;
}

type Link = Awaited<ReturnType<typeof findLink>>;

/** The review of an open link: the snapshot's questions, key and feedback, with the stored answers, in the form's order. */
async function presentReview(token: string, link: Link): Promise<TestLinkReview> {
  const snapshot = readScoredAgainst(link.scoredAgainst);
  const rows = await db.answer.findMany({ where: { submissionId: link.id }, select: { questionId: true, optionIds: true, text: true, score: true } });
  const stored = new Map(rows.map((row) => [row.questionId, row]));
  const image = (item: { imageId: string | null; imageAlt: string | null }) => imageView(item, (imageId) => linkImageUrl(token, imageId));
  const nonEmpty = (text: string | null): text is string => text !== null && text.trim() !== "";
  return {
    form: {
      title: snapshot.form.title,
      questions: snapshot.questions.map((question) => ({
        id: question.id,
        text: question.text,
        type: question.type,
        image: image(question),
        points: isKeyed(question) ? question.points : null,
        feedback: question.feedback,
        options: question.options.map((option) => ({
          id: option.id,
          text: option.text,
          correct: option.correct,
          feedback: option.feedback,
          image: image(option),
        })),
      })),
    },
    answers: snapshot.questions.map((question) => {
      const answer = stored.get(question.id);
      const optionIds = (answer?.optionIds as string[] | undefined) ?? [];
      const keyed = isKeyed(question);
      const chosenFeedback = question.options.filter((option) => optionIds.includes(option.id)).map((option) => option.feedback);
      return {
        questionId: question.id,
        optionIds,
        text: answer?.text ?? null,
        correct: answeredCorrectly(question, optionIds),
        // What the result counted: the stored answer's score, which the snapshot's key gave.
        points: keyed ? (answer?.score ?? 0) : null,
        feedback: [...chosenFeedback, question.feedback].filter(nonEmpty),
      };
    }),
    score: { totalScore: link.totalScore, maxScore: link.maxScore ?? 0, percentage: link.percentage },
  };
}

/** GET /api/test-link/:token/review: 409 REVIEW_NOT_AVAILABLE until the form's policy opens it. `now`: the clock (tests give it). */
export async function reviewTestLink(token: string, now = new Date()): Promise<TestLinkReview> {
  const link = await findLink(token);
  if (!reviewIsOpen(link, link.form, now)) throw reviewNotAvailable();
  return presentReview(token, link);
}

/**
 * What the page of a completed link shows below its message: the review when open; else whether
 * it opens when the test closes. `home`: the viewer is the link's own student, signed in, who
 * may go back to their home page.
 */
export async function completedLinkReview(token: string, viewer: Actor | null, now = new Date()) {
  const link = await findLink(token);
  const home = viewer?.role === "STUDENT" && link.student?.userId === viewer.userId;
  const open = reviewIsOpen(link, link.form, now);
  return {
    review: open ? await presentReview(token, link) : null,
    opensWhenClosed: !open && link.isCompleted && link.form.review === "AFTER_CLOSE",
    home,
  };
}
