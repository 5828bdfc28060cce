import type { Dictionary } from "~/i18n/dictionaries.ts";
import type { Format } from "~/i18n/format.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import type { ScheduleStatus } from "~/features/schedules/schedule-states.ts";
import { Badge, type BadgeTone } from "../badge.tsx";
import { RemindAfterDays } from "../assignments/respondent-fields.tsx";
import { Checkbox, Field } from "../field.tsx";

/** What the schedule pages show of a schedule (the API's item, as a loader hands it down). */
export type ScheduleView = {
  group: { name: string } | null;
  students: { name: string }[];
  candidates: { name: string }[];
  status: ScheduleStatus;
  nextOccurrence: { at: Date | string } | null;
};

/** How many names a schedule's "who" lists before "and N more". */
const NAMES_SHOWN = 3;

/** Whom a schedule gives links to: its group, and the people it names. */
export function scheduleWho(t: Dictionary, format: Format, schedule: Pick<ScheduleView, "group" | "students" | "candidates">): string {
  const names = [...schedule.students, ...schedule.candidates].map((person) => person.name);
  const parts = [
    ...(schedule.group ? [t.assignments.wholeGroup(schedule.group.name)] : []),
    ...(names.length > NAMES_SHOWN
      ? [t.schedules.morePeople(format.list(names.slice(0, NAMES_SHOWN)), format.number(names.length - NAMES_SHOWN))]
      : names.length > 0
        ? [format.list(names)]
        : []),
  ];
  return parts.length > 0 ? parts.join("; ") : t.schedules.nobody;
}

const STATUS_TONES: Record<ScheduleStatus, BadgeTone> = { ACTIVE: "success", PAUSED: "warning", ENDED: "neutral" };

/** The schedule's state, and its next occurrence while it runs. */
export function ScheduleState({ schedule }: { schedule: Pick<ScheduleView, "status" | "nextOccurrence"> }) {
  const t = useT();
  const format = useFormat();
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <Badge tone={STATUS_TONES[schedule.status]}>{t.schedules.statuses[schedule.status]}</Badge>
      {schedule.nextOccurrence ? <span className="text-sm text-slate-700">{t.schedules.nextOn(format.dateTime(schedule.nextOccurrence.at))}</span> : null}
    </span>
  );
}

type FieldMeta = { name: string; defaultValue?: string | undefined; defaultChecked?: boolean | undefined; errors?: readonly string[] | undefined };

/**
 * When and how a schedule's occurrences run, the inputs its creation and its change share: the
 * first (or next) day, how often, the end, and the e-mails. `start`: "first" when making one, "next"
 * on its page, where the day moves the next occurrence.
 */
export function ScheduleTimingInputs({
  fields,
  start,
  today,
}: {
  fields: Record<"startsAt" | "everyDays" | "endsAt" | "count" | "send" | "remindAfterDays" | "expiresAfterDays", FieldMeta>;
  start: "first" | "next";
  today: string;
}) {
  const t = useT();
  const format = useFormat();
  const zone = format.timeZone.replaceAll("_", " ");
  const input = (name: keyof typeof fields) => ({ id: name, name: fields[name].name, defaultValue: fields[name].defaultValue, error: fields[name].errors });
  // A new schedule's days start today; a schedule's own may already lie behind (paused, ended).
  const min = start === "first" ? today : undefined;
  return (
    <>
      <fieldset className="space-y-5">
        <legend className="text-sm font-semibold text-slate-900">{t.schedules.whenTitle}</legend>
        <Field
          {...input("startsAt")}
          type="date"
          min={min}
          required={start === "first"}
          label={start === "first" ? t.schedules.startsAt : t.schedules.nextDay}
          description={start === "first" ? t.schedules.startsAtHint(zone) : t.schedules.nextDayHint(zone)}
          className="max-w-xs"
        />
        <Field
          {...input("everyDays")}
          type="number"
          inputMode="numeric"
          min={1}
          max={365}
          required
          label={t.schedules.everyDays}
          description={t.schedules.everyDaysHint}
          className="max-w-xs"
        />
      </fieldset>
      <fieldset className="space-y-5">
        <legend className="text-sm font-semibold text-slate-900">{t.schedules.endTitle}</legend>
        <p className="text-sm text-slate-600">{t.schedules.endHint}</p>
        <div className="grid gap-5 sm:grid-cols-2">
          <Field {...input("endsAt")} type="date" min={min} label={t.schedules.endsAt} />
          <Field {...input("count")} type="number" inputMode="numeric" min={1} max={1000} label={t.schedules.count} />
        </div>
      </fieldset>
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-slate-900">{t.assignments.deliveryTitle}</legend>
        <Checkbox
          id="send"
          name={fields.send.name}
          label={t.schedules.sendByEmail}
          description={t.assignments.sendByEmailHint}
          defaultChecked={fields.send.defaultChecked}
        />
        <RemindAfterDays field={fields.remindAfterDays} />
        <Field
          {...input("expiresAfterDays")}
          type="number"
          inputMode="numeric"
          min={1}
          max={365}
          label={t.schedules.expiresAfterDays}
          description={t.schedules.expiresAfterDaysHint}
          className="max-w-xs"
        />
      </fieldset>
    </>
  );
}

/** The labels of the timing inputs, for the form's error summary. */
export const timingLabels = (t: Dictionary, start: "first" | "next"): Record<string, string> => ({
  startsAt: start === "first" ? t.schedules.startsAt : t.schedules.nextDay,
  everyDays: t.schedules.everyDays,
  endsAt: t.schedules.endsAt,
  count: t.schedules.count,
  send: t.schedules.sendByEmail,
  remindAfterDays: t.assignments.remindAfterDays,
  expiresAfterDays: t.schedules.expiresAfterDays,
});
