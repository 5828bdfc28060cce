import type { ComponentProps, ReactNode } from "react";
import { Link, useFormAction, useNavigation, useResolvedPath, type LinkProps } from "react-router";
import { cx } from "./cx.ts";
import { Spinner } from "./icons.tsx";

/**
 * Buttons and links that look like buttons. A submit button shows a pending state (spinner,
 * optional `pendingText`, refusing double submits) while its form is being sent; a
 * LinkButton shows a spinner while the page it leads to loads. Without JavaScript the browser's
 * own navigation takes over and nothing is lost.
 */
export type ButtonVariant = "primary" | "secondary" | "danger" | "ghost";
export type ButtonSize = "sm" | "md" | "lg";

export function buttonClasses({
  variant = "primary",
  size = "md",
  className,
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string | undefined;
} = {}) {
  return cx(
    // Buttons are for the screen: a printed page has nothing to press.
    "inline-flex items-center justify-center gap-2 rounded-md font-medium whitespace-nowrap transition-colors print:hidden",
    "disabled:cursor-not-allowed disabled:opacity-60 aria-disabled:cursor-not-allowed aria-disabled:opacity-60",
    size === "sm" && "min-h-8 px-2.5 py-1 text-sm",
    size === "md" && "min-h-10 px-3.5 py-2 text-sm",
    size === "lg" && "min-h-12 px-5 py-2.5 text-base",
    variant === "primary" && "bg-indigo-700 text-white shadow-sm hover:bg-indigo-800",
    variant === "secondary" && "bg-white text-slate-900 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50",
    variant === "danger" && "bg-red-700 text-white shadow-sm hover:bg-red-800",
    variant === "ghost" && "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
    className,
  );
}

/**
 * True while a form posting to `formAction` (default: the current route's action) is being
 * submitted or its redirect is loading; with `intent`, only for the button that sent it.
 */
export function useIsPending({ formAction, intent }: { formAction?: string | undefined; intent?: string | undefined } = {}) {
  const navigation = useNavigation();
  const currentAction = useFormAction();
  if (navigation.state === "idle" || !navigation.formMethod || navigation.formMethod === "GET") return false;
  const action = formAction ?? currentAction;
  const sameAction = navigation.formAction === action || navigation.formAction?.split("?")[0] === action.split("?")[0];
  return sameAction && (intent === undefined || navigation.formData?.get("intent") === intent);
}

type ButtonProps = Omit<ComponentProps<"button">, "formAction"> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Force the pending state; by default a submit button works it out from the navigation. */
  pending?: boolean;
  /** Shown instead of the label while pending ("Saving…"). */
  pendingText?: string;
  icon?: ReactNode;
  formAction?: string;
};

export function Button({ variant, size, pending, pendingText, icon, className, children, type = "button", disabled, onClick, ...props }: ButtonProps) {
  const intent = props.name === "intent" && props.value !== undefined ? String(props.value) : undefined;
  const submitting = useIsPending({ formAction: props.formAction, intent });
  const isPending = pending ?? (type === "submit" && submitting);
  // While pending the button refuses clicks (and Enter in a field, which clicks it) but is not
  // `disabled`: a disabled button loses the focus to <body>, and an answer that keeps the page
  // (a refused action) would leave it there.
  return (
    <button
      type={type}
      disabled={disabled}
      aria-disabled={isPending || undefined}
      aria-busy={isPending || undefined}
      className={buttonClasses({ variant, size, className })}
      onClick={(event) => (isPending ? event.preventDefault() : onClick?.(event))}
      {...props}
    >
      {isPending ? <Spinner /> : icon}
      {isPending && pendingText ? pendingText : children}
    </button>
  );
}

type LinkButtonProps = LinkProps & { variant?: ButtonVariant; size?: ButtonSize; icon?: ReactNode };

export function LinkButton({ variant = "secondary", size, icon, className, children, ...props }: LinkButtonProps) {
  const navigation = useNavigation();
  const target = useResolvedPath(props.to);
  const loading = navigation.state === "loading" && !navigation.formMethod && navigation.location?.pathname === target.pathname;
  return (
    <Link className={buttonClasses({ variant, size, className })} aria-busy={loading || undefined} {...props}>
      {loading ? <Spinner /> : icon}
      {children}
    </Link>
  );
}
