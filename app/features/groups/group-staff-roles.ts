/**
 * A group's staff roles (docs/api-contract.md §19, ADR 86): OWNER changes the staff, EDITOR assigns
 * and changes links, VIEWER reads. Apart from the schemas so that the page's components can list
 * them without bringing Zod into the browser's bundle.
 */
export const GROUP_STAFF_ROLES = ["OWNER", "EDITOR", "VIEWER"] as const;
