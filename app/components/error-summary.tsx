import { useEffect, useRef, type MouseEvent } from "react";
import { useT } from "~/i18n/hooks.ts";
import { AlertPanel } from "./alert-panel.tsx";
import { controlFor, moveFocus } from "./focus.ts";

/**
 * What is wrong with a form, at its top: a heading, the form's own error, and a link to each
 * field to fix (`href="#id"`, so it works without JavaScript). Every page form shows one:
 *
 *   <ErrorSummary form={form} label={(name) => labels[name]} />
 *
 * With JavaScript a refused submit (the browser's checks or the action's answer) moves the focus
 * here and brings it into view: pageFormOptions' onError asks (requestSummaryFocus), the summary
 * takes the focus once it is drawn; a link moves the focus to its field. Without JavaScript the
 * page the action answers has it first, with `autofocus`.
 */
type SummaryForm = { id: string; errors?: readonly string[] | undefined; fieldErrors: Record<string, readonly string[] | undefined> };

/** The forms (by id) with a summary on the page, and those whose summary is to take the focus. */
const mounted = new Set<string>();
const wanted = new Set<string>();

/** For pageFormOptions' onError: false when the form has no summary (the caller focuses a field). */
export function requestSummaryFocus(formId: string) {
  if (!mounted.has(formId)) return false;
  wanted.add(formId);
  return true;
}

/** A summary link: the control of the field takes the focus (the browser would only scroll to it). */
export function followLink(event: MouseEvent<HTMLAnchorElement>) {
  const target = document.getElementById(decodeURIComponent(event.currentTarget.hash.slice(1)));
  if (!target) return;
  event.preventDefault();
  const control = controlFor(target);
  moveFocus(control);
  if (control !== target) target.scrollIntoView({ block: "center" });
}

export function ErrorSummary({
  form,
  title,
  fields = [],
  label = () => undefined,
  target = (name) => name,
  className,
}: {
  form: SummaryForm;
  /** The heading; "There is a problem" by default. */
  title?: string;
  /** The fields in the order the page shows them; fields with errors not listed follow. */
  fields?: readonly string[];
  /** What the page calls a field, by its name. */
  label?: (name: string) => string | undefined;
  /** The id of the element a field's link goes to: by default its name (give controls `id={name}`). */
  target?: (name: string) => string;
  className?: string;
}) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  const formErrors = form.errors ?? [];
  const named = Object.keys(form.fieldErrors).filter((name) => form.fieldErrors[name]?.length);
  const entries = [...fields.filter((name) => named.includes(name)), ...named.filter((name) => !fields.includes(name))];
  const shown = formErrors.length + entries.length > 0;

  useEffect(() => {
    mounted.add(form.id);
    return () => {
      mounted.delete(form.id);
    };
  }, [form.id]);
  // After each render: a refused submit asked for the focus.
  useEffect(() => {
    if (!wanted.has(form.id)) return;
    wanted.delete(form.id);
    if (ref.current) moveFocus(ref.current);
  });

  if (!shown) return null;
  return (
    <AlertPanel ref={ref} tone="error" title={title ?? t.common.errorSummary} className={className}>
      {formErrors.map((message) => (
        <p key={message}>{message}</p>
      ))}
      {entries.length > 0 ? (
        <ul className="list-disc space-y-1 pl-5">
          {entries.map((name) => {
            const message = form.fieldErrors[name]?.[0] ?? "";
            const field = label(name);
            return (
              <li key={name}>
                <a className="font-medium underline hover:text-red-800" href={`#${target(name)}`} onClick={followLink}>
                  {field ? t.common.fieldError(field, message) : message}
                </a>
              </li>
            );
          })}
        </ul>
      ) : null}
    </AlertPanel>
  );
}
