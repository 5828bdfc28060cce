import { useSearchParams } from "react-router";
import { Field } from "./field.tsx";

type DateField = { name: string; errors?: string[] | undefined };

/**
 * A list's "from" and "to" date filters in its GET form: each shows the value in the URL, and is
 * drawn afresh when the URL changes (a link, the back button), with the message the loader or the
 * browser's check gave it.
 */
export function DateRangeFields({ from, to, labels }: { from: DateField; to: DateField; labels: { from: string; to: string } }) {
  const [params] = useSearchParams();
  return (
    <>
      {(["from", "to"] as const).map((name) => {
        const field = name === "from" ? from : to;
        const value = params.get(name) ?? "";
        return (
          <Field
            key={`${name}-${value}`}
            id={name}
            name={field.name}
            type="date"
            label={labels[name]}
            defaultValue={value}
            error={field.errors}
            className="sm:w-44"
          />
        );
      })}
    </>
  );
}
