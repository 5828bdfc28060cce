import { type RefObject, useEffect, useRef } from "react";
import { useNavigate } from "react-router";

/**
 * Moves the focus to an element and brings it to the middle of the screen, clear of the test
 * page's sticky progress bar (focus() alone scrolls it just into view, under the bar).
 */
export function moveFocus(element: HTMLElement) {
  element.focus({ preventScroll: true });
  element.scrollIntoView({ block: "center" });
}

const CONTROL = "input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])";

/**
 * The control to focus for an element a link points at: the element itself when it is one, else
 * the first control of its group (a question's box, a fieldset an error belongs to), else itself.
 */
export function controlFor(target: HTMLElement): HTMLElement {
  if (target.matches(CONTROL)) return target;
  return (target.closest("fieldset") ?? target).querySelector<HTMLElement>(CONTROL) ?? target;
}

/**
 * A confirmation step shown in the page (`?confirm=…`) or as a page of its own, with JavaScript:
 * it takes the focus when it appears (give it tabIndex={-1} and a name); with `cancelTo`, Escape
 * goes there, as its cancel link does; when it goes away with the focus in it, the focus returns
 * to the element with the id `returnTo` (the button that opened it), not to <body>.
 */
export function useConfirmationFocus(ref: RefObject<HTMLElement | null>, options: { cancelTo?: string; returnTo?: string } = {}) {
  const navigate = useNavigate();
  const latest = useRef({ navigate, ...options });
  latest.current = { navigate, ...options };
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    moveFocus(box);
    const onKeyDown = (event: KeyboardEvent) => {
      const { cancelTo } = latest.current;
      if (event.key !== "Escape" || !cancelTo) return;
      event.preventDefault();
      void latest.current.navigate(cancelTo, { replace: true, preventScrollReset: true });
    };
    box.addEventListener("keydown", onKeyDown);
    return () => {
      box.removeEventListener("keydown", onKeyDown);
      const { returnTo } = latest.current;
      const lost = !document.activeElement || document.activeElement === document.body;
      if (returnTo && lost) document.getElementById(returnTo)?.focus();
    };
  }, [ref]);
}
