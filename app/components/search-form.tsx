import type { FocusEventHandler, FormEventHandler, ReactNode } from "react";
import { Form, Link, useLocation, useSearchParams } from "react-router";
import { useT } from "~/i18n/hooks.ts";
import { Button } from "./button.tsx";
import { controlClasses } from "./field.tsx";
import { SearchIcon } from "./icons.tsx";

/**
 * A list's search box (and filters, as children) as a GET form: the query lands in the URL, so
 * results can be bookmarked and shared, the back button works, and no JavaScript is needed.
 * Submitting starts again at page 1; parameters it does not show are kept as hidden fields.
 *
 *   <SearchForm label={t.students.search}>
 *     <Select name="status" label={t.students.status} options={…} />
 *   </SearchForm>
 */
export function SearchForm({
  label,
  name = "search",
  placeholder,
  children,
  keep = [],
  form,
}: {
  label: string;
  name?: string;
  placeholder?: string;
  /** Filters (Select, Checkbox…) shown after the search box. */
  children?: ReactNode;
  /** Parameters to carry over unchanged (e.g. a sort order); page is always reset. */
  keep?: readonly string[];
  /** The page's Conform form, when its filters have rules to check (dates, say). */
  form?: {
    props: {
      id: string;
      onSubmit: FormEventHandler<HTMLFormElement>;
      onBlur: FocusEventHandler<HTMLFormElement>;
      onInput: FormEventHandler<HTMLFormElement>;
      noValidate: boolean;
    };
  };
}) {
  const t = useT();
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const current = params.get(name) ?? "";
  const hasQuery = [...params.keys()].some((key) => key !== "page");
  const inputId = `${name}-input`;
  return (
    <Form method="get" role="search" className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end" {...form?.props}>
      {keep.map((key) => params.getAll(key).map((value, index) => <input key={`${key}-${index}`} type="hidden" name={key} value={value} />))}
      <div className="min-w-0 flex-1 sm:min-w-64">
        <label htmlFor={inputId} className="block text-sm font-medium text-slate-900">
          {label}
        </label>
        <div className="relative mt-1.5">
          <SearchIcon className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
          <input
            id={inputId}
            type="search"
            name={name}
            defaultValue={current}
            key={current}
            placeholder={placeholder ?? t.common.searchPlaceholder}
            className={`${controlClasses(false)} pl-9`}
          />
        </div>
      </div>
      {children}
      <div className="flex gap-2">
        <Button type="submit" variant="secondary">
          {t.common.search}
        </Button>
        {hasQuery ? (
          <Link to={pathname} className="inline-flex min-h-10 items-center px-2 text-sm font-medium text-indigo-700 underline hover:text-indigo-900">
            {t.common.clear}
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
