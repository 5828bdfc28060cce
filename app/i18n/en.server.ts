import type { QuestionType } from "~/features/forms/question-types.ts";
import type { Overrides } from "./overrides.ts";

/**
 * The English strings only the server writes: the report PDF's fixed wording and the e-mails. The
 * source of every key, as en.ts is for the pages: `es.server.ts` and `pt-BR.server.ts` are typed
 * `ServerDictionary`, so a key missing there (or one that exists only there) fails `tsc`. They are
 * `.server` modules so that no browser downloads them: React Router refuses to build a page that
 * imports one (ADR 62).
 *
 * Values are strings, or functions of already formatted values, as in en.ts. An e-mail's body is
 * its paragraphs. Names, titles, answers and band labels come from the data and are never
 * translated.
 */
export const enServer = {
  pdf: {
    documentTitle: "Assessment report",
    respondentSection: "Respondent",
    assessmentSection: "Assessment",
    name: "Name",
    kind: "Type",
    kinds: { student: "Student", candidate: "Candidate" },
    externalId: "Record number",
    dateOfBirth: "Date of birth",
    grade: "Grade",
    age: "Age",
    ageValue: (years: string) => `${years} years`,
    form: "Form",
    category: "Category",
    formType: "Form type",
    completed: "Completed",
    assigned: "Assigned",
    assignedBy: "Assigned by",
    result: "Result",
    totalScore: "Total score",
    percentage: "Percentage",
    band: "Score band",
    noBandMatches: "No score band matches this total.",
    noBandsDefined: "This form defines no score bands.",
    scoreBands: "Score bands",
    scoreMarker: "Score",
    subscales: "Subscales",
    subscaleProrated: "prorated for missing answers",
    subscaleNotScorable: "too many answers missing to score",
    changeSection: "Change over time",
    changeBaseline: "The respondent's first result on this form: the baseline later results are compared with.",
    changeNoScore: "No change can be given: this result or the one it is compared with has no score.",
    flagsSection: "Needs attention",
    flagged: "Flagged: an answer or a score of this result is marked critical.",
    acknowledged: (name: string, date: string) => `Acknowledged by ${name}, ${date}`,
    notAcknowledged: "Not acknowledged yet.",
    acknowledgementNote: "Note",
    answers: "Answers",
    questionCount: (count: number, formatted: string) => (count === 1 ? "1 question" : `${formatted} questions`),
    questionTypes: {
      SINGLE_CHOICE: "Single choice",
      MULTIPLE_CHOICE: "Multiple choice",
      SCALE: "Scale",
      TEXT: "Free text",
    } satisfies Record<QuestionType, string>,
    noAnswer: "No answer",
    notScored: "not scored",
    continued: "continued",
    generated: (date: string) => `Generated ${date}`,
    submission: (id: string) => `Submission ${id}`,
    page: (page: string, pages: string) => `Page ${page} of ${pages}`,
  },

  mail: {
    signInCode: {
      subject: (code: string) => `${code} is your sign-in code`,
      body: (name: string, code: string) => [
        `Hello ${name},`,
        `Your sign-in code for the Assessment Service is ${code}. It is valid for 10 minutes and works once.`,
        "If you did not try to sign in, change your password: someone knows it.",
      ],
    },
    passwordReset: {
      subject: "Choose a new password",
      body: (name: string) => [
        `Hello ${name},`,
        "Someone (hopefully you) asked to choose a new password for your Assessment Service account. The link below is valid for one hour and works once.",
        "If you did not ask for this, ignore this message: your password stays as it is.",
      ],
      action: "Choose a new password",
    },
    signInUnlock: {
      subject: "Sign-in to your account is paused",
      body: (name: string) => [
        `Hello ${name},`,
        "Many wrong passwords were tried for your Assessment Service account from many places, so it takes no more sign-ins from new places for a while.",
        "To sign in now, open the link below in the browser you use: for the next hour that browser signs in with your password as usual. The link is valid for one hour and works once.",
        "If you keep seeing this message, choose a new password and turn on a second factor.",
      ],
      action: "Sign in now",
    },
    invitation: {
      subject: (organization: string) => `Your account at ${organization}`,
      body: (name: string, organization: string) => [
        `Hello ${name},`,
        `An account has been created for you in the Assessment Service of ${organization}. Choose your password with the link below; it is valid for 72 hours and works once.`,
      ],
      action: "Choose your password",
    },
    testLink: {
      subject: (form: string) => `A test for you: ${form}`,
      body: (name: string, organization: string, form: string, expiry: string | null) => [
        `Hello ${name},`,
        `${organization} asks you to answer “${form}”. Open the link below on any phone or computer; no account is needed.`,
        expiry ? `The link works until ${expiry}.` : "The link does not expire.",
      ],
      action: "Open the test",
    },
    reminder: {
      subject: (form: string) => `Reminder: ${form} is waiting for your answers`,
      body: (name: string, organization: string, form: string, expiry: string | null) => [
        `Hello ${name},`,
        `${organization} is still waiting for your answers to “${form}”. It takes a few minutes; the link is below.`,
        expiry ? `The link works until ${expiry}.` : "The link does not expire.",
      ],
      action: "Open the test",
    },
    flaggedResult: {
      subject: (form: string) => `A result needs your attention: ${form}`,
      body: (name: string, respondent: string, form: string, completedAt: string) => [
        `Hello ${name},`,
        `${respondent} completed “${form}” on ${completedAt}, and the result is flagged: an answer or a score is marked critical on this form.`,
        "Open the report to see it, and acknowledge it there once you have. This e-mail does not hold the answers.",
      ],
      action: "Open the report",
    },
  },
  /** The audit log page's names for its actions and the things they are about (only administrators read them). */
  auditLog: {
    targetTypes: {
      user: "User",
      form: "Form",
      student: "Student",
      candidate: "Candidate",
      organization: "Organization",
      group: "Group",
      token: "API token",
      webhook: "Webhook",
      submission: "Result or link",
      person: "Person",
    },
    actions: {
      "auth.signed_in": "Signed in",
      "auth.sign_in_failed": "Sign-in refused",
      "auth.password_changed": "Password changed",
      "auth.password_reset": "Password reset",
      "auth.two_factor_enabled": "Second factor turned on",
      "auth.two_factor_disabled": "Second factor turned off",
      "form.created": "Form created",
      "form.updated": "Form changed",
      "form.deleted": "Form deleted",
      "student.created": "Student added",
      "student.updated": "Student changed",
      "student.deleted": "Student deleted",
      "students.imported": "Students imported",
      "candidate.created": "Candidate added",
      "candidate.updated": "Candidate changed",
      "candidate.deleted": "Candidate deleted",
      "candidates.imported": "Candidates imported",
      "group.created": "Group created",
      "group.updated": "Group changed",
      "group.deleted": "Group deleted",
      "group.staff_changed": "Group staff changed",
      "user.created": "User added",
      "user.updated": "User changed",
      "token.created": "API token created",
      "token.deleted": "API token revoked",
      "webhook.created": "Webhook added",
      "webhook.updated": "Webhook changed",
      "webhook.deleted": "Webhook removed",
      "organization.updated": "Settings changed",
      "report.read": "Report read",
      "report.pdf_read": "Report PDF downloaded",
      "export.created": "Data exported",
      "link.revoked": "Link revoked",
      "link.extended": "Link extended",
      "flag.acknowledged": "Critical answer acknowledged",
      "submission.rescored": "Results rescored",
      "person.exported": "Person's data exported",
      "person.anonymised": "Person anonymised",
      "person.deleted": "Person erased",
      "retention.applied": "Retention policy applied",
    },
  },
};

/** The shape every locale's server strings must have. */
export type ServerDictionary = typeof enServer;

/**
 * A clinic's words in the PDF and the e-mails (ADR 81), as `enClinic` in en.ts is for the pages:
 * only the keys whose text says a school's word. es.server.ts and pt-BR.server.ts owe the same keys.
 */
export const enServerClinic = {
  pdf: { kinds: { student: "Patient" }, grade: "Service" },
  auditLog: {
    targetTypes: { student: "Patient" },
    actions: {
      "student.created": "Patient added",
      "student.updated": "Patient changed",
      "student.deleted": "Patient deleted",
      "students.imported": "Patients imported",
    },
  },
} satisfies Overrides<ServerDictionary>;

export type ServerClinicWords = typeof enServerClinic;
