/**
 * The English dictionary: the source of every key. `es.ts` and `pt-BR.ts` are typed as
 * `Dictionary`, so a key missing there (or one that exists only there) fails `tsc`.
 *
 * Values are strings, or functions for text with values in it (`welcome(name)`), so word order
 * stays with the translator. Numbers and dates passed in are already formatted (see useFormat).
 * Group keys by page or component; add a group when you add a page.
 */
export const en = {
  app: {
    name: "Assessment Service",
    tagline: "Scored assessments for schools and clinics",
  },

  common: {
    skipToContent: "Skip to content",
    menu: "Menu",
    close: "Close",
    search: "Search",
    searchPlaceholder: "Search…",
    clear: "Clear",
    filter: "Filter",
    apply: "Apply",
    save: "Save",
    saving: "Saving…",
    cancel: "Cancel",
    working: "Working…",
    required: "required",
    optional: "optional",
    copy: "Copy",
    copied: "Copied",
    copyFailed: "Copy did not work: select the text and copy it yourself.",
    viewAll: "View all",
    none: "None",
  },

  pagination: {
    label: "Pagination",
    previous: "Previous",
    next: "Next",
    page: (page: string) => `Page ${page}`,
    showing: (from: string, to: string, total: string) => `Showing ${from}–${to} of ${total}`,
  },

  language: {
    label: "Language",
  },

  nav: {
    label: "Main",
    home: "Home",
    forms: "Forms",
    students: "Students",
    candidates: "Candidates",
    assignments: "Assignments",
    reports: "Reports",
    admin: "Administration",
    profile: "Profile",
  },

  user: {
    menu: "Account",
    profile: "Your profile",
    signOut: "Sign out",
    signingOut: "Signing out…",
    roles: {
      SUPER_ADMIN: "Super administrator",
      ADMIN: "Administrator",
      TEACHER: "Teacher",
      STUDENT: "Student",
    },
  },

  respondent: {
    student: "Student",
    candidate: "Candidate",
  },

  score: {
    noBand: "No band",
    of: (total: string, max: string) => `${total} of ${max}`,
  },

  flash: {
    saved: "Saved.",
    created: "Created.",
    deleted: "Deleted.",
  },

  errors: {
    notFoundTitle: "Page not found",
    notFoundText: "The page you asked for does not exist or is not available to you.",
    forbiddenTitle: "Not allowed",
    forbiddenText: "Your account may not open this page. Ask an administrator if you need it.",
    errorTitle: "Something went wrong",
    errorText: "We could not show this page. Please try again in a moment.",
    goHome: "Go to the start page",
    errorCode: (status: string) => `Error ${status}`,
  },

  home: {
    title: "Home",
    welcome: (name: string) => `Welcome, ${name}`,
    intro: "Here is what needs your attention.",
    atAGlance: "At a glance",
    counts: {
      students: "Students",
      candidates: "Candidates",
      forms: "Forms",
      pending: "Pending tests",
      completedThisMonth: "Completed this month",
    },
    quickActions: "Quick actions",
    newForm: "New form",
    newStudent: "New student",
    assign: "Assign a test",
    reports: "Reports",
    pendingTitle: "Pending assignments",
    pendingDescription: "Tests sent and not answered yet, newest first.",
    pendingEmpty: "Nothing is waiting: every test you assigned has been answered or has expired.",
    assigned: (date: string) => `Assigned ${date}`,
    expires: (date: string) => `Expires ${date}`,
    linkLabel: (name: string, form: string) => `Test link for ${name}: ${form}`,
    recentTitle: "Recent results",
    recentDescription: "The last tests completed.",
    recentEmpty: "No results yet. They appear here as soon as someone completes a test.",
    completed: (date: string) => `Completed ${date}`,
    viewAllAssignments: "All assignments",
    viewAllReports: "All reports",
    studentPendingTitle: "Your tests",
    studentPendingDescription: "Tests your teachers sent you that you have not answered yet.",
    studentPendingEmpty: "You have no tests to answer right now.",
    studentLinkHint: "Open the test from the link your teacher sent you.",
  },

  testLink: {
    title: "Your test",
    hello: (name: string) => `Hello, ${name}`,
    intro: "Answer the questions below and press “Send answers” at the end. Questions marked with * need an answer.",
    required: "required",
    answerHere: "Your answer",
    send: "Send answers",
    sending: "Sending…",
    fixErrors: "Some answers need attention:",
    needsAnswer: "This question needs an answer.",
    doneTitle: "Thank you",
    doneText: "Your answers have been received. You can close this page.",
    expiredTitle: "This link has expired",
    expiredText: "Ask the person who sent it to you for a new link.",
    notFoundTitle: "Test not found",
    notFoundText: "This link does not lead to a test. Check that you copied the whole address.",
    question: (n: number) => `Question ${n}`,
  },
};

/** The shape every locale's dictionary must have. */
export type Dictionary = typeof en;
