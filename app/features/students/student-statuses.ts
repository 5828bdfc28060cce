/** A student's statuses (a constant pages need, kept apart from the Zod schemas). */
export const STUDENT_STATUSES = ["ACTIVE", "INACTIVE", "SUSPENDED", "GRADUATED"] as const;
