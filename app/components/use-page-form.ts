import { type DefaultValue, type SubmissionResult, useForm } from "@conform-to/react/future";
import { clientErrors, type ClientValidation } from "~/lib/client-validation.ts";

/**
 * Conform's `useForm` as every page form uses it: the constraints and sentences the loader derived
 * from the action's Zod schema (client-validation.server.ts), checked in the browser on blur and
 * while correcting, and the action's `report()` shown the same way. Without JavaScript the action
 * answers the same sentences.
 */
// The action's result as the page receives it: serialized, so its values are JSON.
// biome-ignore lint/suspicious/noExplicitAny: any JSON value a form posted
type PageResult = SubmissionResult<string[], any>;

export function usePageForm<Name extends string>(
  validation: ClientValidation<Name>,
  lastResult: PageResult | null | undefined,
  defaultValue?: Partial<Record<Name, string>>,
) {
  return useForm<Record<Name, unknown>, string[]>({
    lastResult: lastResult as SubmissionResult<string[]> | null | undefined,
    defaultValue: defaultValue as DefaultValue<Record<Name, unknown>> | undefined,
    constraint: validation.constraint,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ payload, formElement }) => clientErrors(payload, validation, formElement),
  });
}

/** The handle usePageForm returns, for components that render a page's form. */
export type PageForm<Name extends string> = ReturnType<typeof usePageForm<Name>>;
