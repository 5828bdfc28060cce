import { CheckIcon, CloseIcon, HalfIcon } from "~/components/icons.tsx";
import { FormImage } from "~/components/form-image.tsx";
import type { TestLinkReview } from "~/features/submissions/review-schemas.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";

/**
 * The respondent's review below the completed link's message (docs/api-contract.md §22): each
 * question with their answer, whether it was correct (in words, with an icon), the correct options
 * when it was not, the points earned and the feedback; the total. Plain markup: it reads the same
 * without JavaScript, and on a phone.
 */
type Question = TestLinkReview["form"]["questions"][number];
type Answer = TestLinkReview["answers"][number];

export function TestReview({ review }: { review: TestLinkReview }) {
  const t = useT().testLink.review;
  const format = useFormat();
  const answers = new Map(review.answers.map((answer) => [answer.questionId, answer]));
  const { totalScore, maxScore, percentage } = review.score;
  return (
    <section aria-labelledby="review-title" className="mt-10 text-left" data-testid="review">
      <h2 id="review-title" className="text-xl font-bold tracking-tight">
        {t.title}
      </h2>
      {maxScore > 0 ? (
        <p className="mt-2 font-medium text-slate-800">{t.total(format.number(totalScore), format.number(maxScore), format.percent(percentage))}</p>
      ) : null}
      <ol className="mt-6 space-y-4">
        {review.form.questions.map((question, index) => (
          <ReviewedQuestion key={question.id} question={question} answer={answers.get(question.id)} position={index + 1} />
        ))}
      </ol>
    </section>
  );
}

function ReviewedQuestion({ question, answer, position }: { question: Question; answer: Answer | undefined; position: number }) {
  const t = useT().testLink.review;
  const format = useFormat();
  const chosen = question.options.filter((option) => answer?.optionIds.includes(option.id));
  const correctOptions = question.options.filter((option) => option.correct);
  // The same words given twice (an option's and the question's) are read once.
  const feedback = [...new Set(answer?.feedback ?? [])];
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-5">
      <h3 className="font-medium wrap-anywhere">
        <span className="text-slate-500">{`${position}. `}</span>
        {question.text}
      </h3>
      <FormImage image={question.image} className="mt-3" />
      {answer && answer.correct !== null && question.points !== null ? (
        <Verdict correct={answer.correct} partly={!answer.correct && (answer.points ?? 0) > 0}>
          {t.points(format.number(answer.points), format.number(question.points))}
        </Verdict>
      ) : null}
      <dl className="mt-3 space-y-3 text-sm">
        <div>
          <dt className="font-medium text-slate-600">{t.yourAnswer}</dt>
          <dd className="mt-1 text-slate-900">
            {answer?.text ? (
              <p className="whitespace-pre-line wrap-anywhere">{answer.text}</p>
            ) : chosen.length > 0 ? (
              <OptionList options={chosen} />
            ) : (
              <p className="italic">{t.noAnswer}</p>
            )}
          </dd>
        </div>
        {answer?.correct === false && correctOptions.length > 0 ? (
          <div>
            <dt className="font-medium text-slate-600">{t.correctAnswer(correctOptions.length)}</dt>
            <dd className="mt-1 text-slate-900">
              <OptionList options={correctOptions} />
            </dd>
          </div>
        ) : null}
        {feedback.length > 0 ? (
          <div>
            <dt className="font-medium text-slate-600">{t.feedback}</dt>
            <dd className="mt-1">
              <ul className="space-y-1 text-slate-900">
                {feedback.map((text) => (
                  <li key={text} className="whitespace-pre-line wrap-anywhere">
                    {text}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        ) : null}
      </dl>
    </li>
  );
}

function OptionList({ options }: { options: Question["options"] }) {
  return (
    <ul className="space-y-1">
      {options.map((option) => (
        <li key={option.id} className="wrap-anywhere">
          {option.text}
          <FormImage image={option.image} className="mt-1 max-h-40" />
        </li>
      ))}
    </ul>
  );
}

/** Correct, partly correct or not, said in words beside its icon (never by colour alone), with the points. */
function Verdict({ correct, partly, children }: { correct: boolean; partly: boolean; children: string }) {
  const t = useT().testLink.review;
  const [Icon, word, colour] = correct
    ? [CheckIcon, t.correct, "text-emerald-800"]
    : partly
      ? [HalfIcon, t.partlyCorrect, "text-amber-800"]
      : [CloseIcon, t.incorrect, "text-red-800"];
  return (
    <p className={`mt-3 flex flex-wrap items-center gap-x-2 font-semibold ${colour}`}>
      <Icon className="size-5 shrink-0" />
      <span>{word}</span>
      <span aria-hidden="true">·</span>
      <span className="font-medium text-slate-800">{children}</span>
    </p>
  );
}
