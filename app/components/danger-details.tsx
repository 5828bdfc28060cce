import { useId, useRef } from "react";
import { Form } from "react-router";
import { useT } from "~/i18n/hooks.ts";
import { Button } from "./button.tsx";
import { CsrfInput } from "./csrf-input.tsx";
import { useEscapeCloses } from "./disclosure.tsx";

/**
 * A step that cannot be undone, asked first without JavaScript: a <details> whose summary names
 * it, with what it does and the POST button (`intent`) that does it. With JavaScript, opening it
 * moves the focus into it (its text is read first; Tab reaches the button), and Escape closes it
 * with the focus back on its summary.
 */
export function DangerDetails({
  summary,
  text,
  intent,
  confirmLabel,
  className,
}: {
  summary: string;
  text: string;
  intent: string;
  confirmLabel: string;
  className?: string;
}) {
  const t = useT();
  const ref = useRef<HTMLDetailsElement>(null);
  const panel = useRef<HTMLElement>(null);
  const summaryId = useId();
  const textId = useId();
  useEscapeCloses(ref);
  return (
    <details ref={ref} className={className} onToggle={(event) => event.currentTarget.open && panel.current?.focus()}>
      <summary id={summaryId} className="cursor-pointer font-semibold text-red-800">
        {summary}
      </summary>
      <section
        ref={panel}
        tabIndex={-1}
        aria-labelledby={summaryId}
        aria-describedby={textId}
        className="rounded-md outline-none focus-visible:ring-2 focus-visible:ring-red-700"
      >
        <p id={textId} className="mt-2 text-sm text-slate-700">
          {text}
        </p>
        <Form method="post" className="mt-3">
          <CsrfInput />
          <Button type="submit" name="intent" value={intent} variant="danger" pendingText={t.common.working}>
            {confirmLabel}
          </Button>
        </Form>
      </section>
    </details>
  );
}
