import { Form } from "react-router";
import { useT } from "~/i18n/hooks.ts";
import { Button } from "./button.tsx";
import { CsrfInput } from "./csrf-input.tsx";

/**
 * A step that cannot be undone, asked first without JavaScript: a <details> whose summary names
 * it, with what it does and the POST button (`intent`) that does it.
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
  return (
    <details className={className}>
      <summary className="cursor-pointer font-semibold text-red-800">{summary}</summary>
      <p className="mt-2 text-sm text-slate-700">{text}</p>
      <Form method="post" className="mt-3">
        <CsrfInput />
        <Button type="submit" name="intent" value={intent} variant="danger" pendingText={t.common.working}>
          {confirmLabel}
        </Button>
      </Form>
    </details>
  );
}
