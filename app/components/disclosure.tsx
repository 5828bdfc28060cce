import { type RefObject, useEffect, useRef, type ReactNode } from "react";
import { useLocation } from "react-router";
import { cx } from "./cx.ts";

/** Escape closes an open <details> (with JavaScript) and gives the focus back to its summary. */
export function useEscapeCloses(ref: RefObject<HTMLDetailsElement | null>) {
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      details.open = false;
      details.querySelector("summary")?.focus();
    };
    details.addEventListener("keydown", onKeyDown);
    return () => details.removeEventListener("keydown", onKeyDown);
  }, [ref]);
}

/**
 * A dropdown built on <details>/<summary>, so it opens and closes without JavaScript (the phone
 * menu, the user menu, the language menu). With JavaScript it also closes on Escape (focus goes
 * back to its button), on a click outside, and after navigating.
 */
export function Disclosure({
  summary,
  summaryClassName,
  panelClassName,
  className,
  children,
}: {
  summary: ReactNode;
  summaryClassName?: string;
  panelClassName?: string;
  className?: string;
  /** Put any words the button needs for screen readers inside `summary` (sr-only), not in aria-label. */
  children: ReactNode;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();

  // Close after a navigation, but not when the script first runs: a menu opened before the page
  // was hydrated must stay open (a click on it was otherwise undone as the JavaScript arrived).
  const shownKey = useRef(location.key);
  useEffect(() => {
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    ref.current?.removeAttribute("open");
  }, [location.key]);

  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const onPointerDown = (event: PointerEvent) => {
      if (details.open && event.target instanceof Node && !details.contains(event.target)) details.open = false;
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, []);
  useEscapeCloses(ref);

  return (
    <details ref={ref} className={cx("group", className)}>
      <summary className={cx("cursor-pointer list-none [&::-webkit-details-marker]:hidden", summaryClassName)}>{summary}</summary>
      <div className={panelClassName}>{children}</div>
    </details>
  );
}
