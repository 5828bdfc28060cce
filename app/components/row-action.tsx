import { Form } from "react-router";
import { useT } from "~/i18n/hooks.ts";
import { Button, type ButtonVariant } from "./button.tsx";
import { CsrfInput } from "./csrf-input.tsx";

/**
 * One small button acting on one row of a list (remove a member, delete a token, send a delivery
 * again): a post of `intent` with the row's ids, which works without JavaScript. `label` is short;
 * `name` says which row it acts on, for a screen reader.
 */
export function RowAction({
  intent,
  values,
  label,
  name,
  variant = "ghost",
}: {
  intent: string;
  values: Record<string, string>;
  label: string;
  name: string;
  variant?: ButtonVariant;
}) {
  const t = useT();
  return (
    <Form method="post">
      <CsrfInput />
      {Object.entries(values).map(([field, value]) => (
        <input key={field} type="hidden" name={field} value={value} />
      ))}
      <Button type="submit" name="intent" value={intent} size="sm" variant={variant} aria-label={name} pendingText={t.common.working}>
        {label}
      </Button>
    </Form>
  );
}
