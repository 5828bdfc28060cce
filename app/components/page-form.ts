import type { DefaultValue, FormHandle, SubmissionResult } from "@conform-to/react/future";
import { type ClientValidation, clientErrors } from "~/lib/client-validation.ts";
import { requestSummaryFocus } from "./error-summary.tsx";

/**
 * The options every page form gives Conform's `useForm`:
 *
 *   const { form, fields } = useForm(pageFormOptions(loaderData.validation, actionData?.result));
 *
 * the constraints and sentences the loader derived from the action's Zod schema
 * (client-validation.server.ts), checked in the browser on blur and while correcting, and the
 * action's `report()` shown the same way. Without JavaScript the action answers the same sentences.
 * A refused submit moves the focus to the form's ErrorSummary (or, in a form without one, to the
 * first field to fix, as Conform does by default).
 */
// The action's result as the page receives it: serialized, so its values are JSON.
// biome-ignore lint/suspicious/noExplicitAny: any JSON value a form posted
export type PageResult = SubmissionResult<string[], any>;

export function pageFormOptions<Name extends string>(
  validation: ClientValidation<Name>,
  lastResult: PageResult | null | undefined,
  /** Each field's value as posted: a text, a list, or an object posted as fields of its own (`retention.action`). */
  defaultValue?: Partial<Record<Name, string | string[] | Record<string, string>>>,
) {
  return {
    lastResult: lastResult as SubmissionResult<string[]> | null | undefined,
    defaultValue: defaultValue as DefaultValue<Record<Name, unknown>> | undefined,
    constraint: validation.constraint,
    shouldValidate: "onBlur" as const,
    shouldRevalidate: "onInput" as const,
    // A page's own button with `formnovalidate` ("Save and finish later") posts as it is, as the
    // browser does without JavaScript. Conform's own intents (validating a field on blur) come
    // through a `formnovalidate` button too, so only a plain submit (no intent) is let through.
    onValidate: ({
      payload,
      formElement,
      submitter,
      intent,
    }: {
      payload: Record<string, unknown>;
      formElement: HTMLFormElement;
      submitter?: HTMLElement | null;
      intent?: unknown;
    }) =>
      !intent && submitter instanceof HTMLButtonElement && submitter.formNoValidate
        ? { formErrors: null, fieldErrors: {} }
        : clientErrors(payload, validation, formElement),
    onError: ({
      formElement,
      error,
      intent,
    }: {
      formElement: HTMLFormElement;
      error: { fieldErrors: Record<string, unknown> };
      intent?: { type: string } | undefined;
    }) => {
      // A field checked on blur, or a list edited in the form editor, keeps the focus where it is.
      if (intent && intent.type !== "submit") return;
      if (requestSummaryFocus(formElement.id)) return;
      const first = [...formElement.elements].find(
        (element) =>
          (element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) &&
          element.type !== "hidden" &&
          !!error.fieldErrors[element.name],
      );
      (first as HTMLElement | undefined)?.focus();
    },
  };
}

/** What `useForm(pageFormOptions(...))` returns, for components that render a page's form. */
export type PageForm<Name extends string> = FormHandle<Record<Name, unknown>, string[]>;
