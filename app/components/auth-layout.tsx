import type { ReactNode } from "react";
import { useT } from "~/i18n/hooks.ts";
import { LogoMark } from "./icons.tsx";
import { LanguageSwitcher } from "./language-switcher.tsx";

/**
 * The frame of the pages outside the session (sign in, second-factor step, forgotten and new
 * password, a refused OpenID sign-in): the product mark, the language switcher, one centred card.
 */
export function AuthLayout({ title, description, children, footer }: { title: ReactNode; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  const t = useT();
  return (
    <div className="flex min-h-screen flex-col bg-slate-50">
      <header className="flex flex-wrap items-center justify-between gap-3 px-4 py-4 sm:px-6">
        <p className="flex items-center gap-2.5 font-semibold text-slate-900">
          <LogoMark className="size-8" />
          {t.app.name}
        </p>
        <LanguageSwitcher />
      </header>
      <main id="main-content" tabIndex={-1} className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center px-4 pt-4 pb-16 sm:px-6">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        {description ? <div className="mt-1.5 text-slate-600">{description}</div> : null}
        <div className="mt-6 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:p-6">{children}</div>
        {footer ? <div className="mt-6 space-y-2 text-sm">{footer}</div> : null}
      </main>
    </div>
  );
}

/** The underlined text links under the card ("Forgot your password?", "Back to sign in"). */
export const authLinkClasses = "font-medium text-indigo-700 underline hover:text-indigo-900";
