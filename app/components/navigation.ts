import type { Dictionary } from "~/i18n/dictionaries.ts";
import type { Role } from "~/lib/auth/actor.server.ts";
import type { Locale } from "~/lib/i18n.ts";
import { paths } from "~/lib/paths.ts";

/** One entry of the primary navigation: its label key and where it leads. */
export type NavItem = { key: keyof Dictionary["nav"] & string; href: (locale: Locale) => string };

const STAFF: NavItem[] = [
  { key: "home", href: paths.home },
  { key: "forms", href: paths.forms },
  { key: "library", href: paths.library },
  { key: "students", href: paths.students },
  { key: "candidates", href: paths.candidates },
  { key: "groups", href: paths.groups },
  { key: "assignments", href: paths.assignments },
  { key: "schedules", href: paths.schedules },
  { key: "reports", href: paths.reports },
];

/**
 * What the primary navigation offers each role. Pages still check the role themselves: this only
 * decides what is shown.
 */
export function navigationFor(role: Role): NavItem[] {
  if (role === "STUDENT")
    return [
      { key: "home", href: paths.home },
      { key: "profile", href: paths.profile },
    ];
  if (role === "ADMIN" || role === "SUPER_ADMIN") return [...STAFF, { key: "admin", href: paths.adminUsers }];
  return STAFF;
}
