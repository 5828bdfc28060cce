import { useForm } from "@conform-to/react/future";
import { Form } from "react-router";
import type { Route } from "./+types/reports.$submissionId";
import { Badge, ScoreBadge } from "~/components/badge.tsx";
import { Button, LinkButton } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { ErrorSummary } from "~/components/error-summary.tsx";
import { TextArea } from "~/components/field.tsx";
import { FlagMark } from "~/components/flag-mark.tsx";
import { ChevronLeftIcon } from "~/components/icons.tsx";
import { pageFormOptions } from "~/components/page-form.ts";
import { PageHeader, Section } from "~/components/page-header.tsx";
import { acknowledgeSubmission } from "~/features/flags/acknowledgement.server.ts";
import { ACKNOWLEDGEMENT_NOTE_MAX } from "~/features/flags/flag-filters.ts";
import { acknowledgeBody } from "~/features/flags/flag-schemas.ts";
import { reportForPage } from "~/features/reports/report-page.server.ts";
import { questionImages } from "~/features/forms/form-images.server.ts";
import { FormImage } from "~/components/form-image.tsx";
import { recordReportRead } from "~/features/reports/reports.server.ts";
import { type Dictionary, documentTitle } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";
import { useSignedNumber } from "~/components/change-figures.tsx";
import type { Change } from "~/features/scoring/change.ts";
import { useFormat, useLocale, useT, useTotalText } from "~/i18n/hooks.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { parseHexColor } from "~/lib/color.ts";
import { parsePagePost, serviceRefusal, staffPageActor, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";

export const meta: Route.MetaFunction = ({ params, loaderData, matches }) => {
  const t = metaTranslations({ params, matches });
  return [{ title: documentTitle(t, loaderData ? t.reports.detailTitle(loaderData.report.respondent.name) : t.reports.title) }];
};

export async function loader({ context, params }: Route.LoaderArgs) {
  const { actor, report } = await reportForPage(context, params.submissionId);
  await recordReportRead(actor, report, "report.read");
  const images = await questionImages(report.answers.map((answer) => answer.questionId));
  return { report, images, validation: clientValidation(acknowledgeBody, pageTranslations(context, params.locale)) };
}

/** The acknowledge form (docs/api-contract.md §16): the schema and service of POST /api/submissions/:id/acknowledge. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = staffPageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const form = await parsePagePost(request, acknowledgeBody, t);
  if (!form.ok) return form.reply;
  try {
    await acknowledgeSubmission(actor, params.submissionId, form.value);
  } catch (error) {
    // Acknowledged by someone else meanwhile (409), or no longer theirs to read (the 404 page).
    return serviceRefusal(t, form.submission, error);
  }
  throw await redirectWithFlash(paths.report(locale, params.submissionId), { kind: "success", key: "acknowledged" });
}

/**
 * The result against the respondent's earlier ones on the form (docs/api-contract.md §18), as the
 * history table says it: the baseline says so; the category, response and remission where the form
 * gives them.
 */
function changeDetails(report: { isBaseline?: boolean; change?: Change }, t: Dictionary, signed: (value: number | null) => string): [string, string][] {
  const { change } = report;
  if (!change) return [];
  if (report.isBaseline) return [[t.change.fromBaseline, t.change.baseline]];
  const yesNo = (value: boolean) => (value ? t.change.yes : t.change.no);
  return [
    [t.change.fromPrevious, signed(change.fromPrevious)],
    [t.change.fromBaseline, signed(change.fromBaseline)],
    ...(change.reliable === null ? [] : [[t.change.reliable, t.change.categories[change.reliable]] as [string, string]]),
    ...(change.response === null ? [] : [[t.change.response, yesNo(change.response)] as [string, string]]),
    ...(change.remission === null ? [] : [[t.change.remission, yesNo(change.remission)] as [string, string]]),
  ];
}

export default function Report({ loaderData, actionData }: Route.ComponentProps) {
  const { report } = loaderData;
  const t = useT();
  const format = useFormat();
  const locale = useLocale();
  const total = useTotalText()(report);
  const signed = useSignedNumber();
  // A total without bands whose subscales carry the result (DASS-21): the subscales take the
  // bands' place, and the total is not headlined "No band" (ADR 79).
  const subscalesFirst = report.scoreRanges.length === 0 && report.subscales.length > 0;
  const details: [string, string][] = [
    [t.reports.form, report.form.title],
    [t.reports.assignedBy, report.assignedBy.name],
    [t.reports.assignedAt, format.dateTime(report.assignedAt)],
    [t.reports.completedAt, format.dateTime(report.completedAt)],
    ...(report.respondent.grade ? [[t.reports.grade, report.respondent.grade] as [string, string]] : []),
    ...(report.respondent.age !== null ? [[t.reports.age, format.number(report.respondent.age)] as [string, string]] : []),
    ...changeDetails(report, t, signed),
  ];
  return (
    <div className="space-y-6">
      <p>
        <LinkButton to={paths.reports(locale)} variant="ghost" size="sm" icon={<ChevronLeftIcon className="size-4" />}>
          {t.reports.back}
        </LinkButton>
      </p>
      <PageHeader
        title={report.respondent.name}
        description={
          <>
            <Badge className="mr-2">{t.respondent[report.respondent.kind]}</Badge>
            {report.form.title}
          </>
        }
        actions={
          // A plain link (not a client navigation): the browser downloads the file, with or without JavaScript.
          <a
            href={paths.reportPdf(locale, report.id)}
            download
            className="inline-flex min-h-10 items-center justify-center gap-2 rounded-md bg-indigo-700 px-3.5 py-2 text-sm font-medium whitespace-nowrap text-white shadow-sm hover:bg-indigo-800 print:hidden"
          >
            <DownloadIcon />
            {t.reports.downloadPdf}
          </a>
        }
      />

      {report.flags.length > 0 ? <Flags report={report} validation={loaderData.validation} result={actionData?.result} /> : null}

      <div className="grid gap-6 lg:grid-cols-5 lg:items-start">
        <Section id="summary" title={t.reports.summary} className="lg:col-span-2">
          <div className="px-4 py-4 sm:px-5">
            <div className="flex flex-wrap items-center gap-3">
              {subscalesFirst ? null : <ScoreBadge label={report.scoreLabel} color={report.scoreColor} className="px-3 py-1 text-sm" />}
              <p className="text-2xl font-semibold text-slate-900 tabular-nums">
                {total.secondary === null ? <span className="sr-only">{t.reports.total}: </span> : null}
                {total.headline}
              </p>
            </div>
            {total.secondary === null ? null : (
              <p className="mt-1 text-sm text-slate-700 tabular-nums">
                {t.reports.total}: {total.secondary}
              </p>
            )}
            <dl className="mt-4 grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
              {details.map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className="font-medium text-slate-600">{label}</dt>
                  <dd className="wrap-anywhere text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </Section>

        {subscalesFirst ? (
          <Subscales subscales={report.subscales} className="lg:col-span-3" />
        ) : (
          <Section id="bands" title={t.reports.bands} description={t.reports.bandsDescription} className="lg:col-span-3">
            <BandLegend report={report} />
          </Section>
        )}
      </div>

      {report.subscales.length > 0 && !subscalesFirst ? <Subscales subscales={report.subscales} /> : null}

      <Section id="answers" title={t.reports.answers}>
        <ol className="divide-y divide-slate-200">
          {report.answers.map((answer, index) => {
            const text = answer.type === "TEXT" ? answer.text : answer.optionTexts.join(", ");
            return (
              <li key={answer.questionId} className="flex flex-col gap-2 px-4 py-4 sm:flex-row sm:items-start sm:justify-between sm:px-5">
                <div className="min-w-0">
                  <p className="text-xs font-medium tracking-wide text-slate-600 uppercase">{t.reports.question(format.number(index + 1))}</p>
                  <p className="font-medium wrap-anywhere text-slate-900">{answer.questionText}</p>
                  <FormImage image={loaderData.images[answer.questionId]} className="mt-2 max-h-64" />
                  <p className={text ? "mt-1 whitespace-pre-line wrap-anywhere text-slate-800" : "mt-1 text-slate-600 italic"}>{text || t.reports.noAnswer}</p>
                </div>
                <p className="shrink-0 text-sm text-slate-700 tabular-nums sm:text-right">
                  {answer.type === "TEXT" ? t.reports.notScored : t.reports.answerScore(format.number(answer.score), format.number(answer.maxScore))}
                </p>
              </li>
            );
          })}
        </ol>
      </Section>
    </div>
  );
}

type ReportData = Route.ComponentProps["loaderData"]["report"];

/**
 * What made the result critical, and its acknowledgement: who and when with their note, or the
 * form that records it (a plain post, with or without JavaScript).
 */
function Flags({
  report,
  validation,
  result,
}: {
  report: ReportData;
  validation: Route.ComponentProps["loaderData"]["validation"];
  result: NonNullable<Route.ComponentProps["actionData"]>["result"] | undefined;
}) {
  const t = useT();
  const format = useFormat();
  const { form, fields } = useForm(pageFormOptions(validation, result));
  return (
    <Section id="flags" title={t.flags.title} description={t.flags.description} actions={<FlagMark result={report} />}>
      <div className="space-y-4 px-4 py-4 sm:px-5">
        <ul className="space-y-2">
          {report.flags.map((flag) => (
            <li key={`${flag.kind}-${flag.questionKey ?? flag.subscaleKey ?? ""}-${flag.text}`} className="text-sm">
              <span className="font-semibold text-slate-900">{t.flags.kinds[flag.kind]}:</span>{" "}
              <span className="wrap-anywhere text-slate-800">{flag.text}</span>
            </li>
          ))}
        </ul>
        {report.acknowledgedAt ? (
          <div className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm">
            <p className="font-medium text-slate-900">{t.flags.acknowledgedBy(report.acknowledgedBy?.name ?? "", format.dateTime(report.acknowledgedAt))}</p>
            {report.acknowledgementNote ? (
              <p className="mt-1 whitespace-pre-line wrap-anywhere text-slate-800">
                <span className="font-semibold">{t.flags.note}:</span> {report.acknowledgementNote}
              </p>
            ) : null}
          </div>
        ) : (
          <Form method="post" className="space-y-4 print:hidden" {...form.props}>
            <CsrfInput />
            <ErrorSummary form={form} label={() => t.flags.noteLabel} fields={["note"]} />
            <TextArea
              label={t.flags.noteLabel}
              description={t.flags.noteHint(format.number(ACKNOWLEDGEMENT_NOTE_MAX))}
              id="note"
              name={fields.note.name}
              defaultValue={fields.note.defaultValue}
              error={fields.note.errors}
              maxLength={ACKNOWLEDGEMENT_NOTE_MAX}
              rows={3}
            />
            <Button type="submit" variant="primary" pendingText={t.flags.acknowledging}>
              {t.flags.acknowledge}
            </Button>
          </Form>
        )}
      </div>
    </Section>
  );
}

/**
 * Every band of the form on one scale with the respondent's total marked. Colours are SVG `fill`
 * attributes (the CSP forbids inline styles); the words are in the list below the bar.
 */
function BandLegend({ report }: { report: ReportData }) {
  const t = useT();
  const format = useFormat();
  const ranges = [...report.scoreRanges].sort((a, b) => a.min - b.min);
  // A total too many missing answers left unscorable has no place on the bands.
  const total = report.totalScore;
  if (ranges.length === 0 || total === null) return <p className="px-4 py-4 text-sm text-slate-600 sm:px-5">{t.score.noBand}</p>;
  const low = Math.min(ranges[0]!.min, total);
  const high = Math.max(...ranges.map((r) => r.max), total);
  const span = high - low || 1;
  const x = (value: number) => ((value - low) / span) * 1000;
  const marker = x(total);
  const current = (range: (typeof ranges)[number]) => range.label === report.scoreLabel && total >= range.min && total <= range.max;
  return (
    <div className="px-4 py-4 sm:px-5">
      <svg
        viewBox="0 0 1000 56"
        className="h-14 w-full"
        role="img"
        aria-label={`${t.reports.bands}: ${t.reports.yourScore(format.number(report.totalScore))}`}
        preserveAspectRatio="none"
      >
        {ranges.map((range) => (
          <rect
            key={`${range.label}-${range.min}`}
            x={x(range.min)}
            y={current(range) ? 14 : 20}
            width={Math.max(2, x(range.max) - x(range.min))}
            height={current(range) ? 32 : 20}
            fill={parseHexColor(range.color) ? range.color : "#94a3b8"}
            stroke={current(range) ? "#0f172a" : "none"}
            strokeWidth={current(range) ? 3 : 0}
          />
        ))}
        <line x1={marker} x2={marker} y1={2} y2={54} stroke="#0f172a" strokeWidth={6} />
      </svg>
      <p className="mt-1 text-sm font-medium text-slate-900 tabular-nums">{t.reports.yourScore(format.number(report.totalScore))}</p>
      <ul className="mt-3 space-y-2">
        {ranges.map((range) => (
          <li key={`${range.label}-${range.min}`} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <ScoreBadge label={range.label} color={range.color} />
            <span className="text-slate-700 tabular-nums">{t.reports.bandRange(format.number(range.min), format.number(range.max))}</span>
            {current(range) ? <strong className="font-semibold text-slate-900">← {t.reports.thisBand}</strong> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Each subscale as captured at completion (docs/api-contract.md §15), as the PDF lists them: its
 * name, its band, its score of its maximum, and whether missing answers prorated it or left it
 * without a score.
 */
function Subscales({ subscales, className }: { subscales: ReportData["subscales"]; className?: string }) {
  const t = useT();
  const format = useFormat();
  return (
    <Section id="subscales" title={t.reports.subscales} description={t.reports.subscalesDescription} className={className}>
      <ul className="divide-y divide-slate-200">
        {subscales.map((subscale) => (
          <li key={subscale.key} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-3 sm:px-5">
            <p className="min-w-0 font-medium wrap-anywhere text-slate-900">{subscale.name}</p>
            <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
              <ScoreBadge label={subscale.label} color={subscale.color} />
              <span className="tabular-nums">
                {subscale.score === null ? t.reports.subscaleNotScorable : t.score.of(format.number(subscale.score), format.number(subscale.maxScore))}
              </span>
              {subscale.prorated ? <span>({t.reports.subscaleProrated})</span> : null}
            </p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function DownloadIcon() {
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className="size-4"
    >
      <path d="M12 3v12m0 0 5-5m-5 5-5-5M4 19h16" />
    </svg>
  );
}
