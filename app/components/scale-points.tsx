import { pointLabel, type Scale } from "~/features/forms/scale.ts";
import { cx } from "./cx.ts";

/** Whole class names, so Tailwind sees them (an inline style would be refused by the CSP). */
const COLUMNS: Record<number, string> = {
  2: "grid-cols-2",
  3: "grid-cols-3",
  4: "grid-cols-4",
  5: "grid-cols-5",
  6: "grid-cols-6",
  7: "grid-cols-7",
  8: "grid-cols-8",
  9: "grid-cols-9",
  10: "grid-cols-10",
  11: "grid-cols-11",
};

/** Options short enough to stand as points in one row (a scale given only by its options: "1" … "5"). */
const SHORT = 3;

/**
 * A scale question's points in one row, numbered, with what its ends mean underneath: an 11-point
 * scale still fits a 360 px phone. Each point is a radio button (transparent over its numbered box,
 * which shows its focus and its choice), named by its number and, at the ends, by the end's label.
 * A scale given only by options with long texts ("Strongly disagree") keeps the list of
 * `fallback`, as a row of those would not fit.
 */
export function ScalePoints({
  questionId,
  scale,
  options,
  chosen,
  fallback,
}: {
  questionId: string;
  scale: Scale | null;
  options: { id: string; text: string }[];
  chosen: string[];
  fallback: React.ReactNode;
}) {
  const values = options.map((option, i) => (scale ? String(scale.min + i) : option.text));
  const columns = COLUMNS[options.length];
  if (!columns || (!scale && values.some((value) => value.length > SHORT))) return fallback;
  const ends = [scale?.minLabel, scale?.maxLabel];
  const last = options.length - 1;
  return (
    <div className="clear-left pt-3">
      <div className={cx("grid", columns, options.length > 7 ? "gap-0.5" : "gap-1.5")} data-testid="scale-points">
        {options.map((option, i) => {
          const label = scale ? pointLabel(option, scale.min + i) : null;
          const end = i === 0 ? ends[0] : i === last ? ends[1] : null;
          return (
            <label key={option.id} className="group relative flex cursor-pointer flex-col items-center gap-1">
              {/* Transparent over the whole point: a tap anywhere on it is a tap on the radio. */}
              <input
                type="radio"
                name={`q_${questionId}`}
                value={option.id}
                defaultChecked={chosen.includes(option.id)}
                className="peer absolute inset-0 z-10 m-0 size-full cursor-pointer appearance-none opacity-0"
              />
              <span
                className={cx(
                  "flex h-11 w-full max-w-14 items-center justify-center rounded-md border border-slate-400 bg-white font-semibold tabular-nums text-slate-900",
                  "group-hover:bg-slate-50 peer-checked:border-indigo-700 peer-checked:bg-indigo-700 peer-checked:text-white",
                  "peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-indigo-700",
                )}
              >
                {values[i]}
              </span>
              {label ? <span className="w-full text-center text-xs leading-tight break-words text-slate-700">{label}</span> : null}
              {end ? <span className="sr-only">{`, ${end}`}</span> : null}
            </label>
          );
        })}
      </div>
      {ends[0] || ends[1] ? (
        // Read with the end points already (above): shown here once for the eye.
        <div className="mt-2 flex justify-between gap-4 text-sm text-slate-700" aria-hidden="true">
          <span>{ends[0] ? `${values[0]} = ${ends[0]}` : ""}</span>
          <span className="text-end">{ends[1] ? `${values[last]} = ${ends[1]}` : ""}</span>
        </div>
      ) : null}
    </div>
  );
}
