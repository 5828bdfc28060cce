import { useSearchParams } from "react-router";
import { Select } from "./field.tsx";

/**
 * A list filter's select (a form, a group…) for a GET form: it shows the value in the URL, and is
 * drawn afresh when the URL changes (a link, the back button), with "all" as its empty choice.
 */
export function FilterSelect({
  name,
  label,
  all,
  choices,
  className,
}: {
  name: string;
  label: string;
  all: string;
  choices: { id: string; label: string }[];
  className?: string;
}) {
  const [params] = useSearchParams();
  const value = params.get(name) ?? "";
  return (
    <Select
      id={name}
      name={name}
      label={label}
      defaultValue={value}
      key={`${name}-${value}`}
      placeholder={all}
      options={choices.map((choice) => ({ value: choice.id, label: choice.label }))}
      className={className}
    />
  );
}
