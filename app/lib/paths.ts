import type { Locale } from "./i18n.ts";

/**
 * Every page URL, built in one place so links survive a route being moved. A page that does not
 * exist yet still has its future path here (the navigation points at it); add yours next to it.
 */
export const paths = {
  home: (locale: Locale) => `/${locale}/home`,
  login: (locale: Locale) => `/${locale}/login`,
  profile: (locale: Locale) => `/${locale}/profile`,
  profilePassword: (locale: Locale) => `/${locale}/profile/password`,
  profileTwoFactor: (locale: Locale) => `/${locale}/profile/two-factor`,
  profileSessions: (locale: Locale) => `/${locale}/profile/sessions`,
  apiTokens: (locale: Locale) => `/${locale}/profile/tokens`,

  forms: (locale: Locale) => `/${locale}/forms`,
  newForm: (locale: Locale) => `/${locale}/forms/new`,
  form: (locale: Locale, id: string) => `/${locale}/forms/${id}`,
  deleteForm: (locale: Locale, id: string) => `/${locale}/forms/${id}/delete`,
  formPreview: (locale: Locale, id: string) => `/${locale}/forms/${id}/preview`,
  formSummary: (locale: Locale, id: string) => `/${locale}/forms/${id}/summary`,
  formRescore: (locale: Locale, id: string) => `/${locale}/forms/${id}/rescore`,
  copyQuestions: (locale: Locale, id: string, from?: string) => `/${locale}/forms/${id}/copy-questions${from ? `?from=${encodeURIComponent(from)}` : ""}`,
  formTemplates: (locale: Locale) => `/${locale}/forms/templates`,

  library: (locale: Locale) => `/${locale}/library`,
  libraryInstrument: (locale: Locale, key: string) => `/${locale}/library/${encodeURIComponent(key)}`,

  students: (locale: Locale) => `/${locale}/students`,
  newStudent: (locale: Locale) => `/${locale}/students/new`,
  importStudents: (locale: Locale) => `/${locale}/students/import`,
  student: (locale: Locale, id: string) => `/${locale}/students/${id}`,
  editStudent: (locale: Locale, id: string) => `/${locale}/students/${id}/edit`,
  eraseStudent: (locale: Locale, id: string) => `/${locale}/students/${id}/erase`,

  candidates: (locale: Locale) => `/${locale}/candidates`,
  newCandidate: (locale: Locale) => `/${locale}/candidates/new`,
  importCandidates: (locale: Locale) => `/${locale}/candidates/import`,
  candidate: (locale: Locale, id: string) => `/${locale}/candidates/${id}`,
  editCandidate: (locale: Locale, id: string) => `/${locale}/candidates/${id}/edit`,
  eraseCandidate: (locale: Locale, id: string) => `/${locale}/candidates/${id}/erase`,

  groups: (locale: Locale) => `/${locale}/groups`,
  newGroup: (locale: Locale) => `/${locale}/groups/new`,
  group: (locale: Locale, id: string) => `/${locale}/groups/${id}`,
  editGroup: (locale: Locale, id: string) => `/${locale}/groups/${id}/edit`,

  assignments: (locale: Locale) => `/${locale}/assignments`,
  newAssignment: (locale: Locale) => `/${locale}/assignments/new`,
  assignment: (locale: Locale, id: string) => `/${locale}/assignments/${id}`,

  schedules: (locale: Locale) => `/${locale}/schedules`,
  newSchedule: (locale: Locale) => `/${locale}/schedules/new`,
  schedule: (locale: Locale, id: string) => `/${locale}/schedules/${id}`,

  reports: (locale: Locale) => `/${locale}/reports`,
  report: (locale: Locale, submissionId: string) => `/${locale}/reports/${submissionId}`,
  reportPdf: (locale: Locale, submissionId: string) => `/${locale}/reports/${submissionId}/pdf`,

  adminUsers: (locale: Locale) => `/${locale}/admin/users`,
  organizationSettings: (locale: Locale) => `/${locale}/admin/organization`,
  adminWebhooks: (locale: Locale) => `/${locale}/admin/webhooks`,
  adminAudit: (locale: Locale) => `/${locale}/admin/audit`,

  /** Not a page: a person's data as the API's subject access answers it, downloaded (docs/api-contract.md §21). */
  personData: (kind: "student" | "candidate", id: string) => `/api/${kind}s/${id}/export`,
  /** Not a page: the sign-out endpoint the user menu posts to. */
  signOut: () => "/api/auth/signout",
} as const;
