import type { ReactNode } from "react";
import { Form, Link, NavLink } from "react-router";
import { useLocale, useT } from "~/i18n/hooks.ts";
import type { Role } from "~/lib/auth/actor.server.ts";
import { paths } from "~/lib/paths.ts";
import { cx } from "./cx.ts";
import { Disclosure } from "./disclosure.tsx";
import { FlashMessage } from "./flash-message.tsx";
import { ChevronDownIcon, CloseIcon, LogoMark, MenuIcon } from "./icons.tsx";
import { LanguageSwitcher } from "./language-switcher.tsx";
import { navigationFor } from "./navigation.ts";

export type ShellUser = { name: string; email: string; role: Role; image: string | null };

/**
 * The frame of every signed-in page: a skip link, the header (product, primary navigation,
 * language, account menu), and the main landmark with the flash message on top. From `lg` up the
 * navigation sits in the header; below it folds into a <details> menu that works without
 * JavaScript.
 */
export function AppShell({ user, csrfToken, children }: { user: ShellUser; csrfToken: string; children: ReactNode }) {
  const t = useT();
  const locale = useLocale();
  return (
    <div className="flex min-h-screen flex-col">
      <SkipLink />
      <header className="border-b border-slate-200 bg-white print:hidden">
        <div className="relative mx-auto flex h-16 max-w-7xl items-center gap-2 px-4 sm:px-6 lg:px-8">
          <Link to={paths.home(locale)} className="flex min-w-0 items-center gap-2.5 rounded-md font-semibold text-slate-900">
            <LogoMark className="size-8 shrink-0" />
            {/* Between lg and xl the full navigation needs the room: the mark stands for the name. */}
            <span className="truncate lg:max-xl:sr-only">{t.app.name}</span>
          </Link>
          <nav aria-label={t.nav.label} className="ml-2 hidden lg:block xl:ml-6">
            <NavItems role={user.role} layout="bar" />
          </nav>
          <div className="ml-auto flex shrink-0 items-center gap-1">
            <LanguageSwitcher variant="menu" className="hidden lg:block" />
            <UserMenu user={user} csrfToken={csrfToken} />
            <PhoneMenu user={user} csrfToken={csrfToken} />
          </div>
        </div>
      </header>
      <main
        id="main-content"
        tabIndex={-1}
        className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 outline-none sm:px-6 sm:py-8 lg:px-8 print:max-w-none print:p-0"
      >
        <FlashMessage className="mb-6" />
        {children}
      </main>
    </div>
  );
}

/** The first thing a keyboard reaches on every page: a jump past the header to the content. */
export function SkipLink() {
  const t = useT();
  return (
    <a
      href="#main-content"
      className="sr-only z-50 rounded-md bg-white px-4 py-2 font-medium text-indigo-800 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
    >
      {t.common.skipToContent}
    </a>
  );
}

function NavItems({ role, layout }: { role: Role; layout: "bar" | "stack" }) {
  const t = useT();
  const locale = useLocale();
  return (
    // Between lg and xl the bar is tight: an administrator's nine items in Spanish fit 1,024 pixels only with less room around each.
    <ul className={layout === "bar" ? "flex items-center xl:gap-1" : "space-y-1"}>
      {navigationFor(role).map((item) => (
        <li key={item.key}>
          <NavLink
            to={item.href(locale)}
            className={({ isActive }) =>
              cx(
                "flex items-center rounded-md font-medium",
                layout === "bar" ? "min-h-10 px-1.5 text-sm xl:px-3" : "min-h-11 px-3 text-base",
                isActive ? "bg-indigo-50 text-indigo-800" : "text-slate-700 hover:bg-slate-100 hover:text-slate-900",
              )
            }
          >
            {t.nav[item.key]}
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

function Avatar({ user, className = "size-8" }: { user: ShellUser; className?: string }) {
  if (user.image) return <img src={user.image} alt="" className={cx(className, "rounded-full object-cover")} />;
  const initials = user.name
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word[0])
    .filter((_, index, all) => index === 0 || index === all.length - 1)
    .join("")
    .toUpperCase();
  return (
    <span
      aria-hidden="true"
      className={cx(className, "flex shrink-0 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-800")}
    >
      {initials}
    </span>
  );
}

function SignOutForm({ csrfToken, large }: { csrfToken: string; large?: boolean }) {
  const t = useT();
  const locale = useLocale();
  // A full page load: the sign-out endpoint answers with a redirect to the sign-in page.
  return (
    <Form method="post" action={paths.signOut()} reloadDocument>
      <input type="hidden" name="csrfToken" value={csrfToken} />
      <input type="hidden" name="locale" value={locale} />
      <button
        type="submit"
        className={cx(
          "flex w-full items-center rounded-md px-3 text-left font-medium text-slate-800 hover:bg-slate-100",
          large ? "min-h-11 text-base" : "min-h-10 text-sm",
        )}
      >
        {t.user.signOut}
      </button>
    </Form>
  );
}

function UserMenu({ user, csrfToken }: { user: ShellUser; csrfToken: string }) {
  const t = useT();
  const locale = useLocale();
  return (
    <Disclosure
      className="relative hidden lg:block"
      summaryClassName="flex min-h-10 items-center gap-2 rounded-md py-1 pr-2 pl-1 text-sm hover:bg-slate-100"
      summary={
        <>
          <Avatar user={user} />
          <span className="sr-only">{t.user.menu}: </span>
          <span className="max-w-40 truncate font-medium text-slate-900 lg:max-xl:sr-only">{user.name}</span>
          <ChevronDownIcon className="size-4 text-slate-500 group-open:rotate-180" />
        </>
      }
      panelClassName="absolute right-0 z-40 mt-2 w-64 rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
    >
      <div className="border-b border-slate-200 px-3 py-2.5">
        <p className="truncate text-sm font-semibold text-slate-900">{user.name}</p>
        <p className="truncate text-sm text-slate-600">{user.email}</p>
        <p className="mt-1 text-xs font-medium text-indigo-800">{t.user.roles[user.role]}</p>
      </div>
      <ul className="pt-1">
        <li>
          <Link to={paths.profile(locale)} className="flex min-h-10 items-center rounded-md px-3 text-sm font-medium text-slate-800 hover:bg-slate-100">
            {t.user.profile}
          </Link>
        </li>
        <li>
          <SignOutForm csrfToken={csrfToken} />
        </li>
      </ul>
    </Disclosure>
  );
}

function PhoneMenu({ user, csrfToken }: { user: ShellUser; csrfToken: string }) {
  const t = useT();
  const locale = useLocale();
  const profileInNav = navigationFor(user.role).some((item) => item.key === "profile");
  return (
    <Disclosure
      className="lg:hidden"
      summaryClassName="flex min-h-10 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-slate-800 ring-1 ring-slate-300 ring-inset hover:bg-slate-100"
      summary={
        <>
          <MenuIcon className="size-5 group-open:hidden" />
          <CloseIcon className="hidden size-5 group-open:block" />
          {t.common.menu}
        </>
      }
      panelClassName="absolute inset-x-0 top-full z-40 max-h-[calc(100vh-4rem)] overflow-y-auto border-b border-slate-200 bg-white px-4 pt-3 pb-5 shadow-lg sm:px-6"
    >
      <nav aria-label={t.nav.label}>
        <NavItems role={user.role} layout="stack" />
      </nav>
      <div className="mt-4 border-t border-slate-200 pt-4">
        <div className="flex items-center gap-3 px-3">
          <Avatar user={user} className="size-10" />
          <div className="min-w-0">
            <p className="truncate font-semibold text-slate-900">{user.name}</p>
            <p className="truncate text-sm text-slate-600">{t.user.roles[user.role]}</p>
          </div>
        </div>
        <ul className="mt-3 space-y-1">
          {profileInNav ? null : (
            <li>
              <Link to={paths.profile(locale)} className="flex min-h-11 items-center rounded-md px-3 text-base font-medium text-slate-800 hover:bg-slate-100">
                {t.user.profile}
              </Link>
            </li>
          )}
          <li>
            <SignOutForm csrfToken={csrfToken} large />
          </li>
        </ul>
      </div>
      <LanguageSwitcher className="mt-4 border-t border-slate-200 px-1 pt-4" />
    </Disclosure>
  );
}
