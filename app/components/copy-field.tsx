import { useEffect, useRef, useState } from "react";
import { useT } from "~/i18n/hooks.ts";
import { Button } from "./button.tsx";
import { controlClasses } from "./field.tsx";
import { CheckIcon, CopyIcon } from "./icons.tsx";
import { useHydrated } from "./use-hydrated.ts";

/**
 * A value to hand on (a test link) in a read-only input that selects itself when focused, plus a
 * Copy button once JavaScript runs. Without JavaScript the input is still there to select and copy.
 */
export function CopyField({ value, label, id }: { value: string; label: string; id: string }) {
  const t = useT();
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");

  useEffect(() => {
    if (state !== "copied") return;
    const timer = setTimeout(() => setState("idle"), 2500);
    return () => clearTimeout(timer);
  }, [state]);

  async function copy() {
    input.current?.select();
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
  }

  return (
    <div>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <div className="flex gap-2">
        <input
          ref={input}
          id={id}
          type="text"
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className={`${controlClasses(false)} min-w-0 font-mono text-xs sm:text-xs`}
        />
        {hydrated ? (
          <Button
            variant="secondary"
            size="md"
            onClick={copy}
            icon={state === "copied" ? <CheckIcon className="size-4 text-emerald-700" /> : <CopyIcon className="size-4" />}
          >
            {state === "copied" ? t.common.copied : t.common.copy}
            <span className="sr-only">: {label}</span>
          </Button>
        ) : null}
      </div>
      <p id={`${id}-status`} role="status" className={state === "failed" ? "mt-1 text-sm text-red-700" : "sr-only"}>
        {state === "copied" ? t.common.copied : state === "failed" ? t.common.copyFailed : ""}
      </p>
    </div>
  );
}
