import { z } from "zod";
import {
  candidateDetail,
  candidateListResponse,
  createCandidateBody,
  listCandidatesQuery,
  promotionResponse,
  updateCandidateBody,
} from "../candidates/candidate-schemas.ts";
import { createFormBody, formDetail, formListResponse, listFormsQuery, updateFormBody } from "../forms/form-schemas.ts";
import {
  createStudentBody,
  listStudentsQuery,
  studentDetail,
  studentListResponse,
  updateStudentBody,
} from "../students/student-schemas.ts";
import { exportReportBody, listReportsQuery, reportDetail, reportListResponse } from "../reports/report-schemas.ts";
import {
  createSubmissionBody,
  listSubmissionsQuery,
  submissionDetail,
  submissionListResponse,
  submitAnswersBody,
  submitResponse,
  testLinkResponse,
} from "../submissions/submission-schemas.ts";
import {
  listUsersQuery,
  revokeSessionsResponse,
  updateUserBody,
  userListItem,
  userListResponse,
} from "../users/user-admin-schemas.ts";
import { createUserBody, profileResponse, roleResponse, updateProfileBody } from "../users/user-schemas.ts";
import {
  changePasswordBody,
  forgotPasswordBody,
  forgotPasswordResponse,
  passwordSetResponse,
  resetPasswordBody,
} from "../passwords/password-schemas.ts";
import { oidcCallbackQuery, oidcStartQuery } from "~/lib/auth/oidc.server.ts";
import { checkCredentialsBody, credentialsBody, signOutBody } from "~/lib/auth/sign-in.server.ts";
import {
  twoFactorDisableBody,
  twoFactorEnableBody,
  twoFactorSetupBody,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
} from "~/lib/auth/two-factor.server.ts";
import { deletedResponse, idSchema, timestamp } from "~/lib/schemas.ts";

/**
 * Every /api operation, described by the same Zod schemas that validate it. The OpenAPI document
 * is generated from this list, and a test checks it against app/routes.ts.
 */
export type BodyType = "json" | "form" | "multipart";

export type Operation = {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** "session": needs the session cookie; "public": anyone. */
  auth: "session" | "public";
  roles?: string;
  pathParams?: string[];
  query?: z.ZodObject;
  body?: { schema: z.ZodType; types: BodyType[] };
  success: { status: number; description: string; schema?: z.ZodType; contentType?: string; headers?: string[] };
  errors: number[];
};

const browserBody: BodyType[] = ["json", "form", "multipart"];
const ok = z.object({ ok: z.literal(true) });
const csrfResponse = z.object({ csrfToken: z.string() }).meta({ id: "CsrfToken" });
const sessionResponse = z
  .union([
    z.object({
      user: z.object({
        id: idSchema,
        name: z.string(),
        email: z.string(),
        role: z.string(),
        image: z.string().nullable(),
      }),
      expires: timestamp,
    }),
    z.object({}).meta({ description: "No session." }),
  ])
  .meta({ id: "Session" });
const checkCredentialsResponse = z
  .object({ twoFactorRequired: z.boolean(), method: z.enum(["TOTP", "EMAIL"]).optional() })
  .meta({ id: "CheckCredentialsResult" });

export const openApiQuery = z.strictObject({ format: z.enum(["json"]).default("json") });

const STAFF = "SUPER_ADMIN, ADMIN, TEACHER";
const ADMINS = "SUPER_ADMIN, ADMIN";

export const operations: Operation[] = [
  // ---- authentication ----
  {
    method: "get", path: "/api/auth/csrf", operationId: "getCsrfToken", tag: "Authentication", auth: "public",
    summary: "Get a CSRF token (and its cookie) for sign-in and sign-out.",
    success: { status: 200, description: "The token; the cookie remix-auth.csrf-token is set.", schema: csrfResponse, headers: ["Set-Cookie"] },
    errors: [],
  },
  {
    method: "post", path: "/api/auth/check-credentials", operationId: "checkCredentials", tag: "Authentication", auth: "public",
    summary: "Check an e-mail and password and learn whether a second factor is needed (5 calls per 10 minutes per IP). For EMAIL it e-mails a fresh 6-digit code each call (3 per 10 minutes per user, 429 beyond); 429 TWO_FACTOR_LOCKED while the second step is locked.",
    body: { schema: checkCredentialsBody, types: ["json"] },
    success: { status: 200, description: "The credentials are valid.", schema: checkCredentialsResponse },
    errors: [400, 401, 413, 415, 429],
  },
  {
    method: "post", path: "/api/auth/callback/credentials", operationId: "signIn", tag: "Authentication", auth: "public",
    summary: "Sign in: verifies the credentials and, for a user with a second factor, the code (401 TWO_FACTOR_REQUIRED / TWO_FACTOR_INVALID / TWO_FACTOR_EXPIRED; 5 wrong codes lock the second step for 15 minutes, 429 TWO_FACTOR_LOCKED), then sets the session cookie. HTML forms are redirected (302) to /{locale}/home.",
    body: { schema: credentialsBody, types: ["json", "form"] },
    success: { status: 200, description: "Signed in; the session cookie is set.", schema: z.object({ ok: z.literal(true), url: z.string() }), headers: ["Set-Cookie"] },
    errors: [400, 401, 403, 413, 415, 429],
  },
  {
    method: "get", path: "/api/auth/session", operationId: "getSession", tag: "Authentication", auth: "public",
    summary: "The current session's user and expiry, or {} without a session.",
    success: { status: 200, description: "The session.", schema: sessionResponse },
    errors: [],
  },
  {
    method: "post", path: "/api/auth/signout", operationId: "signOut", tag: "Authentication", auth: "public",
    summary: "End the session (its row is deleted) and clear the cookie. HTML forms are redirected to the sign-in page.",
    body: { schema: signOutBody, types: ["json", "form"] },
    success: { status: 200, description: "Signed out.", schema: ok, headers: ["Set-Cookie"] },
    errors: [400, 403, 413, 415],
  },
  // ---- OpenID Connect (browser redirects; docs/decisions/0008-openid-connect.md) ----
  {
    method: "get", path: "/api/auth/oidc", operationId: "startOidcSignIn", tag: "Authentication", auth: "public",
    summary:
      "Start signing in with the external OpenID Connect provider (browsers): redirects to its authorization endpoint with " +
      "state, a PKCE S256 challenge and a nonce, kept in the signed, HttpOnly, SameSite=Lax cookie remix-auth.oidc-state (10 minutes). " +
      "404 OIDC_NOT_CONFIGURED when no provider is configured.",
    query: oidcStartQuery,
    success: {
      status: 302,
      description: "To the provider (or, when it cannot be reached, to the page /{locale}/login/oidc-error?reason=unavailable).",
      headers: ["Location", "Set-Cookie"],
    },
    errors: [400, 404],
  },
  {
    method: "get", path: "/api/auth/oidc/callback", operationId: "completeOidcSignIn", tag: "Authentication", auth: "public",
    summary:
      "Where the provider sends the browser back. Checks the state against the cookie, exchanges the code with the PKCE verifier, " +
      "verifies the ID token (signature, issuer, audience, expiry, nonce) and signs in an existing active user whose e-mail the " +
      "provider reports as verified (linked by issuer and subject from then on). The state cookie is deleted, so a callback works once.",
    query: oidcCallbackQuery,
    success: {
      status: 302,
      description:
        "Signed in: to /{locale}/home with a new session cookie. Refused: to the HTML page /{locale}/login/oidc-error?reason=… " +
        "(state, cancelled, provider, token, unverified, no-account, second-factor, linked-elsewhere, unavailable).",
      headers: ["Location", "Set-Cookie"],
    },
    errors: [404],
  },
  // ---- forgotten password (public) ----
  {
    method: "post", path: "/api/auth/forgot-password", operationId: "forgotPassword", tag: "Authentication", auth: "public",
    summary:
      "Ask for a password reset link. Always the same 200 whether or not the address is known; an active account is e-mailed " +
      "a single-use link to /{locale}/reset-password valid 1 hour (a newer link cancels older ones). " +
      "Limits: 20 requests per hour per client address, 5 per hour per e-mail address.",
    body: { schema: forgotPasswordBody, types: ["json"] },
    success: { status: 200, description: "Accepted (nothing says whether the address is known).", schema: forgotPasswordResponse },
    errors: [400, 413, 415, 429],
  },
  {
    method: "post", path: "/api/auth/reset-password", operationId: "resetPassword", tag: "Authentication", auth: "public",
    summary:
      "Set a new password with the token of a reset or invitation link, once. Ends every session of the user. " +
      "An unknown, used or expired token is 400 INVALID_TOKEN; a refused password is 400 naming `password`.",
    body: { schema: resetPasswordBody, types: ["json"] },
    success: { status: 200, description: "The password is set; sign in with it.", schema: passwordSetResponse },
    errors: [400, 413, 415],
  },
  // ---- second factor (signed-in user; CSRF/origin rules of every session route) ----
  {
    method: "post", path: "/api/auth/two-factor/setup", operationId: "setupTwoFactor", tag: "Authentication", auth: "session",
    summary: "Start enrolling a second factor. TOTP answers the secret, otpauth URI and QR code (only this once; valid 15 minutes); EMAIL e-mails a confirmation code (3 codes per 10 minutes). 409 while a factor is on.",
    body: { schema: twoFactorSetupBody, types: ["json"] },
    success: { status: 200, description: "The pending enrolment.", schema: twoFactorSetupResponse },
    errors: [400, 401, 409, 413, 415, 429],
  },
  {
    method: "post", path: "/api/auth/two-factor/enable", operationId: "enableTwoFactor", tag: "Authentication", auth: "session",
    summary: "Turn on the factor started by setup with one valid code (400 when wrong; 5 wrong codes spend the setup; 409 without a pending setup).",
    body: { schema: twoFactorEnableBody, types: ["json"] },
    success: { status: 200, description: "The second factor is on.", schema: twoFactorStatusResponse },
    errors: [400, 401, 409, 413, 415],
  },
  {
    method: "post", path: "/api/auth/two-factor/disable", operationId: "disableTwoFactor", tag: "Authentication", auth: "session",
    summary: "Turn the second factor off (the TOTP secret is erased); needs the current password (401 INVALID_PASSWORD when wrong).",
    body: { schema: twoFactorDisableBody, types: ["json"] },
    success: { status: 200, description: "The second factor is off.", schema: twoFactorStatusResponse },
    errors: [400, 401, 413, 415, 429],
  },
  // ---- forms ----
  {
    method: "get", path: "/api/forms", operationId: "listForms", tag: "Forms", auth: "session", roles: STAFF,
    summary: "List the caller's forms (administrators: the organization's; teachers: their own plus templates).",
    query: listFormsQuery,
    success: { status: 200, description: "A page of forms, newest first.", schema: formListResponse },
    errors: [400, 401, 403],
  },
  {
    method: "post", path: "/api/forms", operationId: "createForm", tag: "Forms", auth: "session", roles: STAFF,
    summary: "Create a form with its questions, options and score ranges.",
    body: { schema: createFormBody, types: ["json"] },
    success: { status: 201, description: "The created form.", schema: formDetail },
    errors: [400, 401, 403, 413, 415],
  },
  {
    method: "get", path: "/api/forms/{id}", operationId: "getForm", tag: "Forms", auth: "session", roles: STAFF,
    summary: "Read a form with its questions, options (with scores) and score ranges.",
    pathParams: ["id"],
    success: { status: 200, description: "The form.", schema: formDetail },
    errors: [401, 403, 404],
  },
  {
    method: "put", path: "/api/forms/{id}", operationId: "updateForm", tag: "Forms", auth: "session", roles: `${STAFF} (teachers: own forms)`,
    summary: "Update the fields sent; `questions` replaces the list (ids keep, no id creates, missing removes).",
    pathParams: ["id"],
    body: { schema: updateFormBody, types: ["json"] },
    success: { status: 200, description: "The updated form.", schema: formDetail },
    errors: [400, 401, 403, 404, 413, 415],
  },
  {
    method: "delete", path: "/api/forms/{id}", operationId: "deleteForm", tag: "Forms", auth: "session", roles: `${STAFF} (teachers: own forms)`,
    summary: "Soft-delete a form: it leaves lists and reads, pending links stop, completed results stay.",
    pathParams: ["id"],
    success: { status: 200, description: "Deleted.", schema: deletedResponse },
    errors: [401, 403, 404],
  },
  // ---- students ----
  {
    method: "get", path: "/api/students", operationId: "listStudents", tag: "Students", auth: "session", roles: STAFF,
    summary: "List the organization's students.",
    query: listStudentsQuery,
    success: { status: 200, description: "A page of students, newest first.", schema: studentListResponse },
    errors: [400, 401, 403],
  },
  {
    method: "post", path: "/api/students", operationId: "createStudent", tag: "Students", auth: "session", roles: STAFF,
    summary: "Create a student (JSON, urlencoded or multipart).",
    body: { schema: createStudentBody, types: browserBody },
    success: { status: 201, description: "The created student.", schema: studentDetail },
    errors: [400, 401, 403, 409, 413, 415],
  },
  {
    method: "get", path: "/api/students/{id}", operationId: "getStudent", tag: "Students", auth: "session", roles: STAFF,
    summary: "Read a student with the history of results the caller may see.",
    pathParams: ["id"],
    success: { status: 200, description: "The student.", schema: studentDetail },
    errors: [401, 403, 404],
  },
  {
    method: "put", path: "/api/students/{id}", operationId: "updateStudent", tag: "Students", auth: "session", roles: STAFF,
    summary: "Update the fields sent (JSON, urlencoded or multipart).",
    pathParams: ["id"],
    body: { schema: updateStudentBody, types: browserBody },
    success: { status: 200, description: "The updated student.", schema: studentDetail },
    errors: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: "delete", path: "/api/students/{id}", operationId: "deleteStudent", tag: "Students", auth: "session", roles: ADMINS,
    summary: "Soft-delete a student; their pending links stop, completed results stay.",
    pathParams: ["id"],
    success: { status: 200, description: "Deleted.", schema: deletedResponse },
    errors: [401, 403, 404],
  },
  // ---- candidates ----
  {
    method: "get", path: "/api/candidates", operationId: "listCandidates", tag: "Candidates", auth: "session", roles: STAFF,
    summary: "List the organization's candidates.",
    query: listCandidatesQuery,
    success: { status: 200, description: "A page of candidates, newest first.", schema: candidateListResponse },
    errors: [400, 401, 403],
  },
  {
    method: "post", path: "/api/candidates", operationId: "createCandidate", tag: "Candidates", auth: "session", roles: STAFF,
    summary: "Create a candidate (JSON, urlencoded or multipart).",
    body: { schema: createCandidateBody, types: browserBody },
    success: { status: 201, description: "The created candidate.", schema: candidateDetail },
    errors: [400, 401, 403, 409, 413, 415],
  },
  {
    method: "get", path: "/api/candidates/{id}", operationId: "getCandidate", tag: "Candidates", auth: "session", roles: STAFF,
    summary: "Read a candidate with the evaluations the caller may see.",
    pathParams: ["id"],
    success: { status: 200, description: "The candidate.", schema: candidateDetail },
    errors: [401, 403, 404],
  },
  {
    method: "put", path: "/api/candidates/{id}", operationId: "updateCandidate", tag: "Candidates", auth: "session", roles: STAFF,
    summary: "Update the fields sent (JSON, urlencoded or multipart).",
    pathParams: ["id"],
    body: { schema: updateCandidateBody, types: browserBody },
    success: { status: 200, description: "The updated candidate.", schema: candidateDetail },
    errors: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: "delete", path: "/api/candidates/{id}", operationId: "deleteCandidate", tag: "Candidates", auth: "session", roles: ADMINS,
    summary: "Soft-delete a candidate.",
    pathParams: ["id"],
    success: { status: 200, description: "Deleted.", schema: deletedResponse },
    errors: [401, 403, 404],
  },
  {
    method: "post", path: "/api/candidates/{id}/promote", operationId: "promoteCandidate", tag: "Candidates", auth: "session", roles: ADMINS,
    summary: "Promote a candidate to a student in one transaction; the evaluation history moves along.",
    pathParams: ["id"],
    success: { status: 201, description: "The new student and the promoted candidate.", schema: promotionResponse },
    errors: [401, 403, 404, 409],
  },
  // ---- users ----
  {
    method: "get", path: "/api/user/profile", operationId: "getProfile", tag: "Users", auth: "session",
    summary: "The caller's profile with the linked teacher or student data.",
    success: { status: 200, description: "The profile.", schema: profileResponse },
    errors: [401],
  },
  {
    method: "put", path: "/api/user/profile", operationId: "updateProfile", tag: "Users", auth: "session",
    summary:
      "Update the caller's profile (multipart with an optional avatar image, or JSON). Changing `email` requires " +
      "`currentPassword` (400 naming it when missing or wrong).",
    body: { schema: updateProfileBody, types: ["multipart", "json", "form"] },
    success: { status: 200, description: "The updated profile.", schema: profileResponse },
    errors: [400, 401, 409, 413, 415, 429],
  },
  {
    method: "get", path: "/api/user/role", operationId: "getRole", tag: "Users", auth: "session",
    summary: "The caller's role.",
    success: { status: 200, description: "The role.", schema: roleResponse },
    errors: [401],
  },
  {
    method: "post", path: "/api/user/password", operationId: "changePassword", tag: "Users", auth: "session",
    summary:
      "Change the caller's password. A wrong current password is 400 INVALID_CURRENT_PASSWORD naming `currentPassword` " +
      "(10 checks per 15 minutes per user). Every session of the user ends; the answer sets a new session cookie for the caller.",
    body: { schema: changePasswordBody, types: ["json"] },
    success: { status: 200, description: "Changed; the new session cookie is set.", schema: passwordSetResponse, headers: ["Set-Cookie"] },
    errors: [400, 401, 413, 415, 429],
  },
  {
    method: "post", path: "/api/users", operationId: "createUser", tag: "Users", auth: "session", roles: ADMINS,
    summary: "Create a user. Administrators create in their organization and never a SUPER_ADMIN.",
    body: { schema: createUserBody, types: ["json"] },
    success: { status: 201, description: "The user, in the profile format.", schema: profileResponse },
    errors: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: "get", path: "/api/users", operationId: "listUsers", tag: "Users", auth: "session", roles: ADMINS,
    summary: "List the logins of the caller's organization (SUPER_ADMIN: every organization, or one with organizationId).",
    query: listUsersQuery,
    success: { status: 200, description: "A page of users, newest first.", schema: userListResponse },
    errors: [400, 401, 403],
  },
  {
    method: "patch", path: "/api/users/{id}", operationId: "updateUser", tag: "Users", auth: "session", roles: ADMINS,
    summary: "Change a user's name, role (within what the caller may grant) or active flag; deactivation ends their sessions.",
    pathParams: ["id"],
    body: { schema: updateUserBody, types: ["json"] },
    success: { status: 200, description: "The user.", schema: userListItem },
    errors: [400, 401, 403, 404, 413, 415],
  },
  {
    method: "post", path: "/api/users/{id}/sessions/revoke", operationId: "revokeUserSessions", tag: "Users", auth: "session", roles: ADMINS,
    summary: "End every session of a user.",
    pathParams: ["id"],
    success: { status: 200, description: "How many sessions ended.", schema: revokeSessionsResponse },
    errors: [401, 403, 404],
  },
  {
    method: "get", path: "/api/users/{id}/avatar", operationId: "getAvatar", tag: "Users", auth: "session",
    summary: "A user's avatar image (same organization).",
    pathParams: ["id"],
    success: { status: 200, description: "The image.", contentType: "image/*" },
    errors: [401, 404],
  },
  // ---- assignments and public links ----
  {
    method: "post", path: "/api/submissions", operationId: "assignForm", tag: "Submissions", auth: "session", roles: STAFF,
    summary: "Assign a published form to a student or a candidate; answers the private link (token and url).",
    body: { schema: createSubmissionBody, types: ["json"] },
    success: { status: 201, description: "The assignment with its token and absolute url.", schema: submissionDetail },
    errors: [400, 401, 403, 404, 409, 413, 415],
  },
  {
    method: "get", path: "/api/submissions", operationId: "listSubmissions", tag: "Submissions", auth: "session",
    summary: "List submissions: administrators all of the organization, teachers those they assigned, students their own.",
    query: listSubmissionsQuery,
    success: { status: 200, description: "A page of submissions, newest first.", schema: submissionListResponse },
    errors: [400, 401],
  },
  {
    method: "get", path: "/api/submissions/{id}", operationId: "getSubmission", tag: "Submissions", auth: "session",
    summary: "A submission with its answers; while pending, staff also get its token and url.",
    pathParams: ["id"],
    success: { status: 200, description: "The submission.", schema: submissionDetail },
    errors: [401, 404],
  },
  {
    method: "get", path: "/api/test-link/{token}", operationId: "openTestLink", tag: "Public test links", auth: "public",
    summary: "The test behind a private link, without scores or score ranges.",
    pathParams: ["token"],
    success: { status: 200, description: "The test.", schema: testLinkResponse },
    errors: [404, 409, 410],
  },
  {
    method: "post", path: "/api/test-link/{token}/submit", operationId: "submitTestLink", tag: "Public test links", auth: "public",
    summary: "Submit the answers, once. Scores are computed on the server; a second submit is 409.",
    pathParams: ["token"],
    body: { schema: submitAnswersBody, types: browserBody },
    success: { status: 200, description: "Completed.", schema: submitResponse },
    errors: [400, 404, 409, 410, 413, 415],
  },
  // ---- reports ----
  {
    method: "get", path: "/api/reports", operationId: "listReports", tag: "Reports", auth: "session", roles: STAFF,
    summary: "Completed submissions with their scores: teachers see the ones they assigned, administrators all.",
    query: listReportsQuery,
    success: { status: 200, description: "A page of reports, most recently completed first.", schema: reportListResponse },
    errors: [400, 401, 403],
  },
  {
    method: "get", path: "/api/reports/{submissionId}", operationId: "getReport", tag: "Reports", auth: "session", roles: STAFF,
    summary: "The full report of one completed submission, as scored at completion.",
    pathParams: ["submissionId"],
    success: { status: 200, description: "The report.", schema: reportDetail },
    errors: [401, 403, 404, 409],
  },
  {
    method: "post", path: "/api/reports/export", operationId: "exportReport", tag: "Reports", auth: "session", roles: STAFF,
    summary: "The report of one completed submission as a PDF download.",
    body: { schema: exportReportBody, types: ["json"] },
    success: { status: 200, description: "The PDF (Content-Disposition: attachment).", contentType: "application/pdf", headers: ["Content-Disposition"] },
    errors: [400, 401, 403, 404, 409, 413, 415],
  },
  // ---- service ----
  {
    method: "get", path: "/api/openapi", operationId: "getOpenApi", tag: "Service", auth: "public",
    summary: "This document.",
    query: openApiQuery,
    success: { status: 200, description: "The OpenAPI 3.1 document.", schema: z.object({ openapi: z.string() }).loose() },
    errors: [400],
  },
];

