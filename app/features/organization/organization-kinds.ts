/**
 * What an organization is (docs/api-contract.md §18): a school or a clinic. Only the words its
 * people read change with it: pages, e-mails and PDFs say patients where a school's say students
 * (ADR 81). The API, its paths and its field names stay the same for both.
 */
export const ORGANIZATION_KINDS = ["SCHOOL", "CLINIC"] as const;
export type OrganizationKind = (typeof ORGANIZATION_KINDS)[number];

/** A new organization's kind, and the words of a page that belongs to none (the sign-in page). */
export const DEFAULT_ORGANIZATION_KIND: OrganizationKind = "SCHOOL";
