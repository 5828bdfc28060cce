import type { ReactNode, Ref } from "react";
import { useEffect, useId, useRef } from "react";
import { cx } from "./cx.ts";
import { moveFocus } from "./focus.ts";
import { AlertIcon } from "./icons.tsx";

const TONES = {
  error: { panel: "border-red-300 bg-red-50 text-red-950 focus:ring-red-700", icon: "text-red-700", body: "space-y-1" },
  warning: { panel: "border-amber-300 bg-amber-50 text-amber-950 focus:ring-amber-700", icon: "text-amber-700", body: "space-y-2" },
} as const;

/**
 * A panel at the top of a form that asks for attention: what is wrong with it (ErrorSummary) or
 * why a save was held back (the form editor's warnings). An alert named by its heading, which
 * takes the focus: the caller moves it there with JavaScript (through `ref`); without JavaScript
 * the page the action answers opens here, by `autofocus`.
 */
export function AlertPanel({
  ref,
  tone,
  title,
  className,
  testId,
  children,
}: {
  ref: Ref<HTMLDivElement>;
  tone: keyof typeof TONES;
  title: ReactNode;
  className?: string | undefined;
  testId?: string;
  children: ReactNode;
}) {
  const headingId = useId();
  const style = TONES[tone];
  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={-1}
      aria-labelledby={headingId}
      // biome-ignore lint/a11y/noAutofocus: without JavaScript the page the action answers starts at what it asks (React skips it in the browser)
      autoFocus
      className={cx("flex gap-3 rounded-lg border p-4 text-sm outline-none focus:ring-2", style.panel, className)}
      data-testid={testId}
    >
      <AlertIcon className={cx("size-5 shrink-0", style.icon)} />
      <div className={cx("min-w-0", style.body)}>
        <h2 id={headingId} className="font-semibold">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}

/** The ref of a panel that takes the focus whenever the action answers anew (`answer`: its answer). */
export function useFocusOnAnswer(answer: unknown) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (answer && ref.current) moveFocus(ref.current);
  }, [answer]);
  return ref;
}
