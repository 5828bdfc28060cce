import { createHash } from "node:crypto";
import type { jsPDF } from "jspdf";
import { serverTranslations, type ServerDictionary } from "~/i18n/dictionaries.server.ts";
import { type Dictionary, translations } from "~/i18n/dictionaries.ts";
import { closestLocale } from "~/lib/i18n.ts";
import { DEFAULT_ORGANIZATION_KIND, type OrganizationKind } from "../organization/organization-kinds.ts";
import { totalText } from "../scoring/score-display.ts";
import type { ReportDetail } from "../reports/report-schemas.ts";
import { withNativeFlate } from "./native-flate.server.ts";
import {
  ACCENT,
  ANSWER_BAR,
  BODY,
  CONTENT_BOTTOM,
  CONTENT_WIDTH,
  CONTINUATION_TOP,
  FAINT,
  INK,
  MARGIN,
  MUTED,
  PAGE_HEIGHT,
  PAGE_WIDTH,
  PANEL,
  Pdf,
  RULE,
  TRACK,
  WHITE,
  luminance,
  oneLine,
  parseColor,
  textColorOn,
  type TextStyle,
} from "./pdf-document.server.ts";
import { cjkPreferenceOf } from "./script-fonts.server.ts";

/**
 * The PDF of one completed assessment: A4 portrait, a header with the organization and the title,
 * who was assessed with what, the result and its score band, a legend of every band with the
 * total marked on it, then every question with the answer given and its score. Built on the server
 * with jsPDF and an embedded Noto Sans (regular and bold), so any Latin, Greek, Cyrillic or
 * Vietnamese name prints and stays extractable as text.
 *
 * Synchronous: the fonts are read and parsed once per process and shared, read-only, by every
 * document (see embedded-font.server.ts), as are the Intl formatters of recently used locales and
 * time zones; everything else lives in the one document. Two renders of the same report with the
 * same `generatedAt` give the same bytes.
 */

export type ReportPdfOptions = {
  /**
   * Intl formatting, and the fixed wording of the closest of our locales (`pdf` in the server
   * dictionaries: es-MX prints Spanish; a language we lack prints English). Default "en".
   */
  locale?: string;
  /** Time zone of the printed dates. Default "UTC". */
  timeZone?: string;
  /** Whose words label the person (a school's "Student", a clinic's "Patient"; ADR 81): the reader's organization's. Default SCHOOL. */
  organizationKind?: OrganizationKind;
  /** The generation date printed in the footer and stored as the PDF's creation date. Default now. */
  generatedAt?: Date;
  /** The images the questions show (docs/api-contract.md §22), by question id: printed under each question's text. */
  images?: Record<string, PdfImage>;
};

/** A stored form image (PNG or JPEG, ADR 92) with its size in pixels. */
export type PdfImage = { contentType: string; bytes: Uint8Array; width: number; height: number; alt: string };

// ---------------------------------------------------------------------------------------------
// Rendering.

type Formatters = {
  strings: ServerDictionary["pdf"];
  /** The pages' words for a total ("9 / 27", "9 of 27"), for totalText. */
  score: Dictionary["score"];
  /** The pages' words for change over time (docs/api-contract.md §18), as the history table says them. */
  change: Dictionary["change"];
  /** A change of a score with its sign: "+3", "-2", "0"; null is "—". */
  signed: (value: number | null) => string;
  /** null (an unscorable total) is "—". */
  number: (value: number | null) => string;
  percent: (value: number | null) => string;
  dateTime: (value: Date) => string;
  /** A calendar day (2014-03-09) written as the locale writes dates, with no time zone to move it. */
  day: (value: string) => string;
};

function resolveLocale(locale: string | undefined): string {
  try {
    return Intl.getCanonicalLocales(locale?.trim() || "en")[0] ?? "en";
  } catch {
    return "en";
  }
}

function resolveTimeZone(timeZone: string | undefined): string {
  try {
    return new Intl.DateTimeFormat("en", { timeZone: timeZone ?? "UTC" }).resolvedOptions().timeZone;
  } catch {
    return "UTC";
  }
}

/**
 * Formatters by requested locale and time zone. Intl objects are costly to build (a large share of a
 * render) and immutable once built, so they are shared between renders; the cache keeps the most
 * recently used few so that arbitrary locale or time-zone inputs cannot grow it.
 */
const FORMATTER_CACHE_SIZE = 32;
const formatterCache = new Map<string, { locale: string; f: Formatters }>();

function cachedFormatters(
  requestedLocale: string | undefined,
  requestedTimeZone: string | undefined,
  kind: OrganizationKind,
): { locale: string; f: Formatters } {
  const key = `${requestedLocale ?? ""}\u0000${requestedTimeZone ?? ""}\u0000${kind}`;
  let entry = formatterCache.get(key);
  if (entry) {
    formatterCache.delete(key);
  } else {
    const locale = resolveLocale(requestedLocale);
    entry = Object.freeze({ locale, f: Object.freeze(formatters(locale, resolveTimeZone(requestedTimeZone), kind)) });
    if (formatterCache.size >= FORMATTER_CACHE_SIZE) formatterCache.delete(formatterCache.keys().next().value!);
  }
  formatterCache.set(key, entry);
  return entry;
}

function formatters(locale: string, timeZone: string, kind: OrganizationKind): Formatters {
  const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  const signed = new Intl.NumberFormat(locale, { maximumFractionDigits: 2, signDisplay: "exceptZero" });
  const percent = new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 2 });
  const dateTime = new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  });
  const calendarDay = new Intl.DateTimeFormat(locale, { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });
  return {
    strings: serverTranslations(closestLocale(locale), kind).pdf,
    score: translations(closestLocale(locale), kind).score,
    change: translations(closestLocale(locale), kind).change,
    signed: (value) => (value === null ? "—" : signed.format(Object.is(value, -0) ? 0 : value)),
    number: (value) => (value === null ? "—" : number.format(Object.is(value, -0) ? 0 : value)),
    percent: (value) => (value === null ? "—" : percent.format(value / 100)),
    dateTime: (value) => (Number.isNaN(value.getTime()) ? "—" : dateTime.format(value)),
    day: (value) => {
      const day = new Date(`${value}T00:00:00Z`);
      return Number.isNaN(day.getTime()) ? value : calendarDay.format(day);
    },
  };
}

/**
 * Renders the report as a PDF, synchronously (the bytes are ready on return; awaiting it is harmless).
 * The result is a plain ArrayBuffer-backed Uint8Array, accepted as a `Response` body.
 */
export function renderReportPdf(report: ReportDetail, options: ReportPdfOptions = {}): Uint8Array<ArrayBuffer> {
  const { locale, f } = cachedFormatters(options.locale, options.timeZone, options.organizationKind ?? DEFAULT_ORGANIZATION_KIND);
  const generatedAt = options.generatedAt && !Number.isNaN(options.generatedAt.getTime()) ? options.generatedAt : new Date();
  const pdf = new Pdf();
  pdf.cjk = cjkPreferenceOf(userText(report)) ?? "sc";
  const { doc } = pdf;

  const respondentName = oneLine(report.respondent.name);
  const formTitle = oneLine(report.form.title);
  doc.setDocumentProperties({
    title: `${f.strings.documentTitle} — ${respondentName} — ${formTitle}`,
    subject: formTitle,
    author: oneLine(report.organization.name),
    creator: oneLine(report.organization.name),
  });
  doc.setCreationDate(generatedAt);
  doc.setFileId(createHash("sha256").update(`${report.id}\n${generatedAt.toISOString()}`).digest("hex").slice(0, 32).toUpperCase());
  doc.setLanguage(locale as Parameters<jsPDF["setLanguage"]>[0]);

  drawTitle(pdf, report, f);
  drawDetails(pdf, report, f);
  drawResult(pdf, report, f);
  drawChange(pdf, report, f);
  drawFlags(pdf, report, f);
  drawBands(pdf, report, f);
  drawSubscales(pdf, report, f);
  drawAnswers(pdf, report, f, options.images ?? {});

  const pages = doc.getNumberOfPages();
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    if (page > 1) drawContinuationHeader(pdf, report, f);
    drawFooter(pdf, report, f, page, pages, generatedAt);
  }
  const bytes = new Uint8Array(withNativeFlate(() => doc.output("arraybuffer")));
  pdf.fonts.throwIfFailed();
  return bytes;
}

/** Everything in the report that people wrote, to choose the Han characters' forms (Japanese with kana, Korean with Hangul) once for the document. */
function userText(report: ReportDetail): string {
  return [
    report.organization.name,
    report.respondent.name,
    report.respondent.externalId ?? "",
    report.respondent.grade ?? "",
    report.form.title,
    report.form.category ?? "",
    report.form.type ?? "",
    report.assignedBy.name,
    report.scoreLabel ?? "",
    ...report.scoreRanges.map((range) => range.label),
    ...report.answers.flatMap((answer) => [answer.questionText, answer.text ?? "", ...answer.optionTexts]),
    ...report.flags.map((flag) => flag.text),
    report.acknowledgedBy?.name ?? "",
    report.acknowledgementNote ?? "",
  ].join("\n");
}

function drawTitle(pdf: Pdf, report: ReportDetail, f: Formatters) {
  pdf.fill(ACCENT);
  pdf.doc.rect(0, 0, PAGE_WIDTH, 6, "F");

  const org = pdf.lines(report.organization.name, CONTENT_WIDTH, { size: 10.5, bold: true });
  pdf.text(org, MARGIN, 44, { size: 10.5, bold: true, color: ACCENT }, "left", 14);
  let y = 44 + (org.length - 1) * 14 + 30;
  pdf.text(f.strings.documentTitle, MARGIN, y, { size: 23, bold: true, color: INK });
  const form = pdf.lines(report.form.title, CONTENT_WIDTH, { size: 12.5 });
  y += 20;
  pdf.text(form, MARGIN, y, { size: 12.5, color: MUTED }, "left", 16);
  y += (form.length - 1) * 16 + 16;
  pdf.rule(y, RULE, 0.8);
  pdf.y = y + 18;
}

type Row = { label: string; value: string; bold?: boolean };

function drawDetails(pdf: Pdf, report: ReportDetail, f: Formatters) {
  const s = f.strings;
  const respondent: Row[] = [
    { label: s.name, value: report.respondent.name, bold: true },
    // Under the name, what tells two people of one name apart (docs/api-contract.md §18).
    ...(report.respondent.externalId?.trim() ? [{ label: s.externalId, value: report.respondent.externalId }] : []),
    ...(report.respondent.dateOfBirth ? [{ label: s.dateOfBirth, value: f.day(report.respondent.dateOfBirth) }] : []),
    { label: s.kind, value: s.kinds[report.respondent.kind] },
    ...(report.respondent.grade?.trim() ? [{ label: s.grade, value: report.respondent.grade }] : []),
    ...(report.respondent.age !== null ? [{ label: s.age, value: s.ageValue(f.number(report.respondent.age)) }] : []),
  ];
  const assessment: Row[] = [
    { label: s.form, value: report.form.title, bold: true },
    ...(report.form.category?.trim() ? [{ label: s.category, value: report.form.category }] : []),
    ...(report.form.type?.trim() ? [{ label: s.formType, value: report.form.type }] : []),
    { label: s.completed, value: f.dateTime(report.completedAt) },
    { label: s.assigned, value: f.dateTime(report.assignedAt) },
    { label: s.assignedBy, value: report.assignedBy.name },
  ];

  const pad = 16;
  const gutter = 24;
  const inner = CONTENT_WIDTH - 2 * pad - gutter;
  // The assessment column holds the longer values (form title, dates): it gets the larger share.
  const widths = [inner * 0.42, inner * 0.58];
  const labelStyle: TextStyle = { size: 8.5, color: MUTED };
  const lineHeight = 13;
  const rowGap = 5;

  const layout = (rows: Row[], width: number) => {
    const labelWidth = Math.min(width * 0.42, Math.max(...rows.map((row) => pdf.width(row.label, labelStyle))) + 12);
    return {
      labelWidth,
      rows: rows.map((row) => {
        const label = pdf.lines(row.label, labelWidth - 8, labelStyle);
        const lines = pdf.lines(row.value, width - labelWidth, { size: 9.5, bold: row.bold });
        return { ...row, label, lines: lines.length ? lines : ["—"], height: Math.max(label.length, lines.length || 1) * lineHeight };
      }),
    };
  };
  const columns = [
    { title: s.respondentSection, ...layout(respondent, widths[0]!) },
    { title: s.assessmentSection, ...layout(assessment, widths[1]!) },
  ];
  const headingHeight = 22;
  const columnHeight = (rows: { height: number }[]) => headingHeight + rows.reduce((sum, row) => sum + row.height + rowGap, 0) - rowGap;
  const height = pad * 2 + Math.max(...columns.map((column) => columnHeight(column.rows))) - 4;

  const top = pdf.y;
  pdf.fill(PANEL);
  pdf.doc.roundedRect(MARGIN, top, CONTENT_WIDTH, height, 6, 6, "F");
  columns.forEach((column, index) => {
    const x = MARGIN + pad + (index === 0 ? 0 : widths[0]! + gutter);
    let y = top + pad + 8;
    pdf.text(column.title.toLocaleUpperCase(), x, y, { size: 8, bold: true, color: ACCENT });
    y += headingHeight - 2;
    for (const row of column.rows) {
      pdf.text(row.label, x, y, labelStyle, "left", lineHeight);
      pdf.text(row.lines, x + column.labelWidth, y, { size: 9.5, bold: row.bold, color: INK }, "left", lineHeight);
      y += row.height + rowGap;
    }
  });
  {
    const x = MARGIN + pad + widths[0]! + gutter / 2;
    pdf.stroke(RULE, 0.6);
    pdf.doc.line(x, top + pad, x, top + height - pad);
  }
  pdf.y = top + height + 26;
}

function sectionHeading(pdf: Pdf, title: string, aside?: string) {
  pdf.text(title.toLocaleUpperCase(), MARGIN, pdf.y, { size: 9, bold: true, color: ACCENT });
  if (aside) pdf.text(aside, PAGE_WIDTH - MARGIN, pdf.y, { size: 8.5, color: MUTED }, "right");
  pdf.rule(pdf.y + 6);
  pdf.y += 24;
}

function drawResult(pdf: Pdf, report: ReportDetail, f: Formatters) {
  const s = f.strings;
  pdf.ensure(110);
  sectionHeading(pdf, s.result);
  const top = pdf.y;
  const labelStyle: TextStyle = { size: 8.5, color: MUTED };

  // As the pages show it (ADR 79): a RAW total is "9 / 27" large and no percentage; a PERCENT one
  // is "23" large with "/ 40" smaller beside it, and its percentage.
  const text = totalText(report, { number: f.number, percent: f.percent, of: f.score.of, outOf: f.score.outOf });
  const scoreX = MARGIN;
  pdf.text(s.totalScore, scoreX, top, labelStyle);
  const big: TextStyle = { size: 24, bold: true, color: INK };
  if (text.percent === null) {
    pdf.text(text.headline, scoreX, top + 28, big);
  } else {
    const total = f.number(report.totalScore);
    pdf.text(total, scoreX, top + 28, big);
    pdf.text(`/ ${f.number(report.maxScore)}`, scoreX + pdf.width(total, big) + 5, top + 28, { size: 13, color: MUTED });
    const percentX = MARGIN + 150;
    pdf.text(s.percentage, percentX, top, labelStyle);
    pdf.text(text.percent, percentX, top + 28, big);
  }

  const bandX = MARGIN + 280;
  const bandWidth = PAGE_WIDTH - MARGIN - bandX;
  // A total without bands whose subscales carry the result (DASS-21) has no band to show: the
  // subscales that follow do.
  const subscalesOnly = report.scoreRanges.length === 0 && report.subscales.length > 0;
  if (!subscalesOnly) pdf.text(s.band, bandX, top, labelStyle);
  let bottom = top + 34;
  if (subscalesOnly) {
    // Nothing in the band's place.
  } else if (report.scoreLabel) {
    const background = parseColor(report.scoreColor);
    const style: TextStyle = { size: 11, bold: true, color: textColorOn(background) };
    const padX = 12;
    const lines = pdf.lines(report.scoreLabel, bandWidth - 2 * padX, style);
    const lineHeight = 14;
    const height = 10 + lines.length * lineHeight;
    const width = Math.max(...lines.map((line) => pdf.width(line, style))) + 2 * padX;
    const pillTop = top + 11;
    pdf.fill(background);
    pdf.doc.roundedRect(bandX, pillTop, width, height, Math.min(height / 2, 11), Math.min(height / 2, 11), "F");
    pdf.text(lines, bandX + padX, pillTop + 5 + 10.5, style, "left", lineHeight);
    bottom = Math.max(bottom, pillTop + height);
  } else {
    const message = report.scoreRanges.length === 0 ? s.noBandsDefined : s.noBandMatches;
    const lines = pdf.lines(message, bandWidth, { size: 10.5 });
    pdf.text(lines, bandX, top + 26, { size: 10.5, color: BODY }, "left", 14);
    bottom = Math.max(bottom, top + 26 + (lines.length - 1) * 14 + 4);
  }
  pdf.y = bottom + 28;
}

/**
 * The result against the respondent's earlier ones on the form (docs/api-contract.md §18): the
 * change since the previous and since the first result, and the reliable change category, response
 * and remission where the form gives them; the first result says it is the baseline. Nothing for a
 * report made without its change.
 */
function drawChange(pdf: Pdf, report: ReportDetail, f: Formatters) {
  const change = report.change;
  if (!change) return;
  const s = f.strings;
  const c = f.change;
  const yesNo = (value: boolean) => (value ? c.yes : c.no);
  const text = report.isBaseline
    ? s.changeBaseline
    : change.fromPrevious === null && change.fromBaseline === null
      ? s.changeNoScore
      : [
          `${c.fromPrevious}: ${f.signed(change.fromPrevious)}`,
          `${c.fromBaseline}: ${f.signed(change.fromBaseline)}`,
          ...(change.reliable === null ? [] : [`${c.reliable}: ${c.categories[change.reliable]}`]),
          ...(change.response === null ? [] : [`${c.response}: ${yesNo(change.response)}`]),
          ...(change.remission === null ? [] : [`${c.remission}: ${yesNo(change.remission)}`]),
        ].join(" · ");
  const lines = pdf.lines(text, CONTENT_WIDTH, { size: 10 });
  pdf.ensure(24 + lines.length * 14);
  sectionHeading(pdf, s.changeSection);
  pdf.text(lines, MARGIN, pdf.y, { size: 10, color: BODY }, "left", 14);
  pdf.y += (lines.length - 1) * 14 + 30;
}

/** The mark of a flagged result: dark red, and always said in words too. */
const FLAG_COLOR = parseColor("#B42318");

/**
 * A flagged result (docs/api-contract.md §16): that it is flagged, in words, what raised each
 * flag, and who acknowledged it when, with their note, or that nobody has yet. Nothing for a
 * result without a flag.
 */
function drawFlags(pdf: Pdf, report: ReportDetail, f: Formatters) {
  if (report.flags.length === 0) return;
  const s = f.strings;
  const lineHeight = 13;
  const width = CONTENT_WIDTH - 14;
  const flagged = pdf.lines(s.flagged, width, { size: 10, bold: true });
  const items = report.flags.map((flag) => pdf.lines(`• ${flag.text}`, width - BULLET_INDENT, { size: 9.5 }));
  const acknowledgement = pdf.lines(
    report.acknowledgedAt ? s.acknowledged(report.acknowledgedBy?.name ?? "", f.dateTime(report.acknowledgedAt)) : s.notAcknowledged,
    width,
    { size: 9.5, bold: true },
  );
  const note =
    report.acknowledgedAt && report.acknowledgementNote ? pdf.lines(`${s.acknowledgementNote}: ${report.acknowledgementNote}`, width, { size: 9.5 }) : [];
  const lines = flagged.length + items.reduce((sum, item) => sum + item.length, 0) + acknowledgement.length + note.length;
  const height = lines * lineHeight + 16;
  pdf.ensure(24 + height);
  sectionHeading(pdf, s.flagsSection);
  const top = pdf.y - 10;
  pdf.fill(FLAG_COLOR);
  pdf.doc.rect(MARGIN, top, 3, height, "F");
  let y = pdf.y + 2;
  const x = MARGIN + 14;
  pdf.text(flagged, x, y, { size: 10, bold: true, color: FLAG_COLOR }, "left", lineHeight);
  y += flagged.length * lineHeight;
  for (const item of items) {
    pdf.text(item, x + BULLET_INDENT, y, { size: 9.5, color: BODY }, "left", lineHeight);
    y += item.length * lineHeight;
  }
  pdf.text(acknowledgement, x, y, { size: 9.5, bold: true, color: INK }, "left", lineHeight);
  y += acknowledgement.length * lineHeight;
  if (note.length > 0) pdf.text(note, x, y, { size: 9.5, color: BODY }, "left", lineHeight);
  pdf.y = top + height + 28;
}

function drawBands(pdf: Pdf, report: ReportDetail, f: Formatters) {
  const ranges = report.scoreRanges
    .filter((range) => Number.isFinite(range.min) && Number.isFinite(range.max))
    .map((range) => ({ ...range, min: Math.min(range.min, range.max), max: Math.max(range.min, range.max) }))
    .sort((a, b) => a.min - b.min || a.max - b.max);
  // A total too many missing answers left unscorable has no place on the bands.
  if (ranges.length === 0 || report.totalScore === null) return;
  const s = f.strings;
  const total = Number.isFinite(report.totalScore) ? report.totalScore : 0;

  // Integer scores cover whole units: 0–10 and 11–20 meet at 10.5, and 5–5 is one unit wide.
  const integral = [...ranges.flatMap((range) => [range.min, range.max]), total].every(Number.isInteger);
  const pad = integral ? 0.5 : 0;
  const first = ranges[0]!.min - pad;
  const last = Math.max(...ranges.map((range) => range.max)) + pad;
  const below = total - pad < first;
  const above = total + pad > last;
  // A total far outside every band (more than half their span away) would squeeze the bands into
  // a sliver: the axis is then broken, the bands keep most of the width, the total sits past the break.
  const span = Math.max(last - first, 1e-9);
  const distance = below ? first - (total - pad) : above ? total + pad - last : 0;
  const broken = distance > span * 0.5;

  const legendColumns = Math.min(ranges.length, 3);
  const legendRows = Math.ceil(ranges.length / legendColumns);
  pdf.ensure(24 + 18 + 18 + 16 + 18 + legendRows * 16);
  sectionHeading(pdf, s.scoreBands);

  const barX = MARGIN;
  const barWidth = CONTENT_WIDTH;
  const barTop = pdf.y + 18;
  const barHeight = 18;
  let x: (value: number) => number;
  let markerX: number;
  let breakX: number | null = null;
  if (broken) {
    const reserve = barWidth * 0.14;
    const bandsX0 = barX + (below ? reserve : 0);
    const bandsWidth = barWidth - reserve;
    const lo = last - first > 0 ? first : first - 0.5;
    const hi = last - first > 0 ? last : last + 0.5;
    x = (value) => bandsX0 + ((value - lo) / (hi - lo)) * bandsWidth;
    markerX = below ? barX + reserve * 0.35 : barX + barWidth - reserve * 0.35;
    breakX = below ? barX + reserve * 0.7 : barX + barWidth - reserve * 0.7;
  } else {
    let low = Math.min(first, total - pad);
    let high = Math.max(last, total + pad);
    if (high - low <= 0) {
      low -= 1;
      high += 1;
    }
    // A total outside every band gets a little room so its marker does not sit on the edge.
    const breathing = (high - low) * 0.03;
    if (below) low -= breathing;
    if (above) high += breathing;
    x = (value) => barX + ((value - low) / (high - low)) * barWidth;
    markerX = Math.min(Math.max(x(total), barX), barX + barWidth);
  }

  pdf.fill(TRACK);
  pdf.doc.rect(barX, barTop, barWidth, barHeight, "F");
  if (breakX !== null) {
    // The axis break: two slanted white strokes across the track.
    pdf.stroke(WHITE, 2);
    for (const offset of [-3, 3]) pdf.doc.line(breakX + offset - 3, barTop + barHeight + 2, breakX + offset + 3, barTop - 2);
  }

  let lastCaptionEnd = -Infinity;
  // The list under the bar is only needed when a segment is too narrow for its label or range.
  let everythingFits = true;
  for (const range of ranges) {
    const start = x(range.min - pad);
    const end = Math.max(x(range.max + pad), start + 2);
    const color = parseColor(range.color);
    pdf.fill(color);
    if (luminance(color) > 0.85) {
      // A very light band still shows its edges against the page and the track.
      pdf.stroke(FAINT, 0.6);
      pdf.doc.rect(start, barTop, end - start, barHeight, "FD");
    } else {
      pdf.doc.rect(start, barTop, end - start, barHeight, "F");
    }
    const labelStyle: TextStyle = { size: 8, bold: true, color: textColorOn(color) };
    const label = oneLine(range.label);
    const labelWidth = pdf.width(label, labelStyle) + 10;
    // Centred in the segment, or beside the total's marker when the marker would cross it.
    const centre = (start + end) / 2;
    let labelX: number | null = null;
    if (labelWidth <= end - start && Math.abs(markerX - centre) > labelWidth / 2 + 2) {
      labelX = centre;
    } else if (markerX > start && markerX < end) {
      const sides = [
        [start, markerX - 3],
        [markerX + 3, end],
      ] as const;
      const side = sides.filter(([a, b]) => labelWidth <= b - a).sort(([a1, b1], [a2, b2]) => b2 - a2 - (b1 - a1))[0];
      if (side) labelX = (side[0] + side[1]) / 2;
    }
    if (labelX !== null) pdf.text(label, labelX, barTop + barHeight / 2 + 2.8, labelStyle, "center");
    else everythingFits = false;
    const caption = `${f.number(range.min)} – ${f.number(range.max)}`;
    const captionStyle: TextStyle = { size: 7.5, color: MUTED };
    const captionWidth = pdf.width(caption, captionStyle);
    if (captionWidth + 4 <= end - start + 8 && centre - captionWidth / 2 > lastCaptionEnd + 4) {
      const clamped = Math.min(Math.max(centre, barX + captionWidth / 2), barX + barWidth - captionWidth / 2);
      pdf.text(caption, clamped, barTop + barHeight + 11, captionStyle, "center");
      lastCaptionEnd = clamped + captionWidth / 2;
    } else {
      everythingFits = false;
    }
  }
  // White hairlines between touching segments keep neighbouring colours apart.
  pdf.stroke(WHITE, 1);
  for (let i = 1; i < ranges.length; i++) {
    const boundary = x(ranges[i]!.min - pad);
    if (Math.abs(boundary - x(ranges[i - 1]!.max + pad)) < 0.5) pdf.doc.line(boundary, barTop, boundary, barTop + barHeight);
  }

  // The respondent's total: a line across the bar, a triangle above it and the value.
  pdf.stroke(WHITE, 3);
  pdf.doc.line(markerX, barTop, markerX, barTop + barHeight);
  pdf.stroke(INK, 1.4);
  pdf.doc.line(markerX, barTop, markerX, barTop + barHeight);
  pdf.fill(INK);
  pdf.doc.triangle(markerX - 5.5, barTop - 9, markerX + 5.5, barTop - 9, markerX, barTop - 1, "F");
  const markerLabel = `${s.scoreMarker}: ${f.number(total)}`;
  const markerStyle: TextStyle = { size: 8.5, bold: true, color: INK };
  const markerWidth = pdf.width(markerLabel, markerStyle);
  const markerLabelX = Math.min(Math.max(markerX, barX + markerWidth / 2), barX + barWidth - markerWidth / 2);
  pdf.text(markerLabel, markerLabelX, barTop - 13, markerStyle, "center");

  if (everythingFits) {
    pdf.y = barTop + barHeight + 34;
    return;
  }

  // Legend: a swatch, the label and the range of every band, in up to three columns.
  let y = barTop + barHeight + 34;
  const columnGap = 24;
  const columnWidth = (CONTENT_WIDTH - columnGap * (legendColumns - 1)) / legendColumns;
  const rowHeights: number[] = [];
  const entries = ranges.map((range) => {
    const matched = report.scoreLabel !== null && range.label === report.scoreLabel && range.min <= total && total <= range.max;
    const rangeText = `${f.number(range.min)} – ${f.number(range.max)}`;
    const rangeStyle: TextStyle = { size: 9, color: MUTED };
    const rangeWidth = pdf.width(rangeText, rangeStyle);
    const labelStyle: TextStyle = { size: 9, bold: matched, color: INK };
    const lines = pdf.lines(range.label, columnWidth - 16 - rangeWidth - 12, labelStyle);
    return { range, matched, rangeText, rangeStyle, labelStyle, lines: lines.length ? lines : ["—"] };
  });
  for (let row = 0; row < legendRows; row++) {
    const cells = entries.slice(row * legendColumns, row * legendColumns + legendColumns);
    rowHeights[row] = Math.max(...cells.map((cell) => cell.lines.length * 12)) + 6;
  }
  for (let row = 0; row < legendRows; row++) {
    const height = rowHeights[row]!;
    if (pdf.ensure(height)) y = pdf.y;
    entries.slice(row * legendColumns, row * legendColumns + legendColumns).forEach((entry, column) => {
      const cx = MARGIN + column * (columnWidth + columnGap);
      const swatch = parseColor(entry.range.color);
      pdf.fill(swatch);
      pdf.stroke(FAINT, 0.6);
      pdf.doc.roundedRect(cx, y - 8, 9, 9, 2, 2, luminance(swatch) > 0.85 ? "FD" : "F");
      pdf.text(entry.lines, cx + 16, y, entry.labelStyle, "left", 12);
      pdf.text(entry.rangeText, cx + columnWidth, y, entry.rangeStyle, "right");
    });
    y += height;
    pdf.y = y;
  }
  pdf.y = y + 14;
}

type Line = { text: string; kind: "question" | "answer" | "empty" | "image"; bullet: boolean; height: number; image?: PlacedImage };
type PlacedImage = PdfImage & { drawWidth: number; drawHeight: number };

/** An image is printed at most this high (pt), and never wider than the question's text. */
const IMAGE_MAX_HEIGHT = 160;
const IMAGE_GAP = 6;

const QUESTION_STYLE: TextStyle = { size: 10, bold: true, color: INK };
const ANSWER_STYLE: TextStyle = { size: 9.5, color: BODY };
const EMPTY_STYLE: TextStyle = { size: 9.5, color: FAINT };
const QUESTION_LINE = 13.5;
const ANSWER_LINE = 13;
const NUMBER_WIDTH = 26;
/**
 * Each subscale as captured (docs/api-contract.md §15): its name, its band with a swatch of its
 * colour, and its score out of its maximum; a prorated score says so, an unscorable one says why.
 */
function drawSubscales(pdf: Pdf, report: ReportDetail, f: Formatters) {
  if (report.subscales.length === 0) return;
  const s = f.strings;
  const nameWidth = CONTENT_WIDTH * 0.42;
  const labelX = MARGIN + nameWidth + 16;
  const labelWidth = CONTENT_WIDTH - nameWidth - 16 - SCORE_WIDTH - 16;
  const lineHeight = 13;
  const rows = report.subscales.map((subscale) => {
    const note = subscale.scorable ? (subscale.prorated ? s.subscaleProrated : null) : s.subscaleNotScorable;
    // Its change since the first result, and its category, as the history table says them (§18).
    const change =
      subscale.change && subscale.change.fromBaseline !== null
        ? [
            f.change.sinceFirst(f.signed(subscale.change.fromBaseline)),
            ...(subscale.change.reliable ? [f.change.categories[subscale.change.reliable]] : []),
          ].join(" · ")
        : null;
    const label = [
      ...(subscale.label ? pdf.lines(subscale.label, labelWidth - 16, { size: 9.5 }) : []),
      ...(note ? pdf.lines(note, labelWidth - 16, { size: 8.5 }) : []),
      ...(change ? pdf.lines(change, labelWidth - 16, { size: 8.5 }) : []),
    ];
    const name = pdf.lines(subscale.name, nameWidth, { size: 10, bold: true });
    return { subscale, name, label, labeled: subscale.label !== null, height: Math.max(name.length, label.length, 1) * lineHeight + 10 };
  });
  pdf.ensure(24 + rows[0]!.height);
  sectionHeading(pdf, s.subscales);
  rows.forEach((row, index) => {
    pdf.ensure(row.height);
    if (index > 0) pdf.rule(pdf.y - 8, RULE, 0.5);
    const y = pdf.y + 2;
    pdf.text(row.name, MARGIN, y, { size: 10, bold: true, color: INK }, "left", lineHeight);
    if (row.labeled && row.subscale.color) {
      const swatch = parseColor(row.subscale.color);
      pdf.fill(swatch);
      pdf.stroke(FAINT, 0.6);
      pdf.doc.roundedRect(labelX, y - 8, 9, 9, 2, 2, luminance(swatch) > 0.85 ? "FD" : "F");
    }
    pdf.text(row.label, labelX + 16, y, { size: 9.5, color: row.labeled ? INK : MUTED }, "left", lineHeight);
    const score = `${f.number(row.subscale.score)} / ${f.number(row.subscale.maxScore)}`;
    pdf.text(score, PAGE_WIDTH - MARGIN, y, { size: 10, bold: true, color: INK }, "right");
    pdf.y += row.height;
  });
  pdf.y += 16;
}

const SCORE_WIDTH = 84;
const TEXT_X = MARGIN + NUMBER_WIDTH;
const TEXT_WIDTH = CONTENT_WIDTH - NUMBER_WIDTH - SCORE_WIDTH - 8;
const ANSWER_X = TEXT_X + 11;
const BULLET_INDENT = 10;
const BLOCK_PAD = 10;
const QA_GAP = 5;

function drawAnswers(pdf: Pdf, report: ReportDetail, f: Formatters, images: Record<string, PdfImage>) {
  const s = f.strings;
  const answers = report.answers;
  if (answers.length === 0) return;
  const blocks = answers.map((answer, index) => layoutAnswer(pdf, answer, index, f, images[answer.questionId]));
  const headingHeight = 24;
  const firstHeight = blocks[0] ? Math.min(blocks[0].minHeight, blocks[0].height) : 0;
  pdf.ensure(headingHeight + firstHeight);
  sectionHeading(pdf, s.answers, s.questionCount(answers.length, f.number(answers.length)));
  pdf.y -= BLOCK_PAD;

  blocks.forEach((block, index) => {
    // Short blocks move whole to the next page; a long one may start here and continue there.
    const keepTogether = (CONTENT_BOTTOM - CONTINUATION_TOP) * 0.4;
    let pageStart = index === 0;
    if (block.height <= keepTogether) {
      if (pdf.ensure(block.height)) pageStart = true;
    } else if (pdf.ensure(block.minHeight)) {
      pageStart = true;
    }
    if (!pageStart) pdf.rule(pdf.y, RULE, 0.5, TEXT_X, PAGE_WIDTH - MARGIN);
    drawBlock(pdf, block, f);
  });
}

type Block = ReturnType<typeof layoutAnswer>;

function layoutAnswer(pdf: Pdf, answer: ReportDetail["answers"][number], index: number, f: Formatters, image: PdfImage | undefined) {
  const s = f.strings;
  const question = pdf.lines(answer.questionText, TEXT_WIDTH, QUESTION_STYLE);
  const lines: Line[] = (question.length ? question : ["—"]).map((text) => ({ text, kind: "question", bullet: false, height: QUESTION_LINE }));
  // The question's image, under its text and kept with it: a pixel is a point, scaled down to fit.
  if (image && image.width > 0 && image.height > 0) {
    const scale = Math.min(1, TEXT_WIDTH / image.width, IMAGE_MAX_HEIGHT / image.height);
    const placed = { ...image, drawWidth: image.width * scale, drawHeight: image.height * scale };
    lines.push({ text: image.alt, kind: "image", bullet: false, height: placed.drawHeight + IMAGE_GAP * 2, image: placed });
  }
  const answerWidth = TEXT_WIDTH - (ANSWER_X - TEXT_X);
  const answerLines: Line[] = [];
  if (answer.type === "TEXT") {
    const text = answer.text ?? "";
    for (const text2 of pdf.lines(text, answerWidth, ANSWER_STYLE)) answerLines.push({ text: text2, kind: "answer", bullet: false, height: ANSWER_LINE });
  } else {
    const options = answer.optionTexts.filter((option) => option.trim() !== "");
    const bulleted = options.length > 1;
    for (const option of options) {
      pdf.lines(option, answerWidth - (bulleted ? BULLET_INDENT : 0), ANSWER_STYLE).forEach((text, i) => {
        answerLines.push({ text, kind: "answer", bullet: bulleted && i === 0, height: ANSWER_LINE });
      });
    }
  }
  if (answerLines.length === 0) answerLines.push({ text: s.noAnswer, kind: "empty", bullet: false, height: ANSWER_LINE });
  if (answerLines[0]) answerLines[0] = { ...answerLines[0], height: answerLines[0].height + QA_GAP };
  const all = [...lines, ...answerLines];
  const scoreColumn = 13.5 + 11;
  const contentHeight = Math.max(
    all.reduce((sum, line) => sum + line.height, 0),
    scoreColumn,
  );
  const headLines = lines.length + Math.min(3, answerLines.length);
  const minHeight = BLOCK_PAD * 2 + all.slice(0, headLines).reduce((sum, line) => sum + line.height, 0);
  const scored = answer.type !== "TEXT";
  return {
    number: f.number(index + 1),
    question: answer.questionText,
    lines: all,
    height: BLOCK_PAD * 2 + contentHeight,
    minHeight,
    score: scored ? `${f.number(answer.score)} / ${f.number(answer.maxScore)}` : s.notScored,
    scored,
    type: s.questionTypes[answer.type] ?? answer.type,
  };
}

function drawBlock(pdf: Pdf, block: Block, f: Formatters) {
  let y = pdf.y + BLOCK_PAD;
  const baseline = (line: Line) => (line.kind === "question" ? 10 : 9.5);
  // Number and score column, at the first question line.
  const firstBaseline = y + baseline(block.lines[0]!);
  pdf.text(`${block.number}.`, MARGIN, firstBaseline, { size: 10, bold: true, color: ACCENT });
  pdf.text(block.score, PAGE_WIDTH - MARGIN, firstBaseline, block.scored ? { size: 10, bold: true, color: INK } : { size: 9, color: MUTED }, "right");
  pdf.text(block.type, PAGE_WIDTH - MARGIN, firstBaseline + 12, { size: 7.5, color: FAINT }, "right");

  let barStart: number | null = null;
  const closeBar = (end: number) => {
    if (barStart === null) return;
    pdf.fill(ANSWER_BAR);
    pdf.doc.rect(TEXT_X, barStart, 2, end - barStart, "F");
    barStart = null;
  };
  const endOfPage = CONTENT_BOTTOM;
  const lines = block.lines;
  const questionLines = lines.filter((line) => line.kind === "question" || line.kind === "image").length;
  lines.forEach((line, index) => {
    const next = lines[index + 1];
    // Never leave the question alone, and never carry one last line over by itself.
    const overflows = y + line.height > endOfPage;
    const widow = index === lines.length - 2 && next !== undefined && y + line.height + next.height > endOfPage;
    if (index >= questionLines + 1 && (overflows || widow)) {
      closeBar(y + 3);
      pdf.newPage();
      y = pdf.y;
      const note: TextStyle = { size: 8, color: FAINT };
      const suffix = ` (${f.strings.continued})`;
      const lead = pdf.fit(`${block.number}. ${block.question}`, CONTENT_WIDTH - SCORE_WIDTH - pdf.width(suffix, note), note);
      pdf.text(`${lead}${suffix}`, MARGIN, y + 8, note);
      y += 16;
    }
    const gap = line.kind !== "question" && line.height > ANSWER_LINE ? line.height - ANSWER_LINE : 0;
    const lineBaseline = y + gap + baseline(line);
    if (line.kind === "image") {
      drawImage(pdf, line.image!, y + IMAGE_GAP);
      y += line.height;
      return;
    }
    if (line.kind !== "question" && barStart === null) barStart = y + gap - 0.5;
    if (line.kind === "question") {
      pdf.text(line.text, TEXT_X, lineBaseline, QUESTION_STYLE);
    } else if (line.kind === "empty") {
      pdf.text(line.text, ANSWER_X, lineBaseline, EMPTY_STYLE);
    } else {
      if (line.bullet) pdf.text("•", ANSWER_X, lineBaseline, ANSWER_STYLE);
      const indent = lines.some((l) => l.bullet) ? BULLET_INDENT : 0;
      pdf.text(line.text, ANSWER_X + indent, lineBaseline, ANSWER_STYLE);
    }
    y += line.height;
  });
  closeBar(y + 3.5);
  pdf.y = Math.max(y, pdf.y + BLOCK_PAD + 24.5) + BLOCK_PAD;
}

/**
 * A stored image, once per document (jsPDF keeps one copy per alias however often it is drawn); one
 * jsPDF cannot read is left out, its alt text printed in its place, rather than failing the report.
 */
function drawImage(pdf: Pdf, image: PlacedImage, top: number) {
  const format = image.contentType === "image/png" ? "PNG" : "JPEG";
  try {
    pdf.doc.addImage(image.bytes, format, TEXT_X, top, image.drawWidth, image.drawHeight, `image-${createHash("sha256").update(image.bytes).digest("hex")}`);
  } catch {
    pdf.text(pdf.fit(image.alt, TEXT_WIDTH, EMPTY_STYLE), TEXT_X, top + 10, EMPTY_STYLE);
  }
}

function drawContinuationHeader(pdf: Pdf, report: ReportDetail, f: Formatters) {
  const style: TextStyle = { size: 8, color: MUTED };
  const available = CONTENT_WIDTH - 20;
  const leftText = `${report.organization.name} · ${f.strings.documentTitle}`;
  const rightText = `${report.respondent.name} · ${report.form.title}`;
  const leftWidth = pdf.width(oneLine(leftText), style);
  const rightWidth = pdf.width(oneLine(rightText), style);
  let leftRoom = available / 2;
  if (leftWidth + rightWidth <= available) leftRoom = leftWidth;
  else if (leftWidth < available / 2) leftRoom = leftWidth;
  else if (rightWidth < available / 2) leftRoom = available - rightWidth;
  const left = pdf.fit(leftText, leftRoom, style);
  const right = pdf.fit(rightText, available - leftRoom, style);
  pdf.fill(ACCENT);
  pdf.doc.rect(0, 0, PAGE_WIDTH, 3, "F");
  pdf.text(left, MARGIN, 34, style);
  pdf.text(right, PAGE_WIDTH - MARGIN, 34, style, "right");
  pdf.rule(42);
}

function drawFooter(pdf: Pdf, report: ReportDetail, f: Formatters, page: number, pages: number, generatedAt: Date) {
  const y = PAGE_HEIGHT - 30;
  const style: TextStyle = { size: 7.5, color: MUTED };
  pdf.rule(y - 12);
  const pageText = f.strings.page(f.number(page), f.number(pages));
  const pageWidth = pdf.width(pageText, style);
  const left = pdf.fit(`${f.strings.generated(f.dateTime(generatedAt))} · ${f.strings.submission(report.id)}`, CONTENT_WIDTH - pageWidth - 16, style);
  pdf.text(left, MARGIN, y, style);
  pdf.text(pageText, PAGE_WIDTH - MARGIN, y, style, "right");
}
