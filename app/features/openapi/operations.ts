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
import { createUserBody, profileResponse, roleResponse, updateProfileBody } from "../users/user-schemas.ts";
import { checkCredentialsBody, credentialsBody, signOutBody } from "~/lib/auth/sign-in.server.ts";
import { deletedResponse, idSchema, timestamp } from "~/lib/schemas.ts";

/**
 * Every /api operation, described by the same Zod schemas that validate it. The OpenAPI document
 * is generated from this list, and a test checks it against app/routes.ts.
 */
export type BodyType = "json" | "form" | "multipart";

export type Operation = {
  method: "get" | "post" | "put" | "delete";
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
    summary: "Check an e-mail and password and learn whether a second factor is needed (5 calls per 10 minutes per IP).",
    body: { schema: checkCredentialsBody, types: ["json"] },
    success: { status: 200, description: "The credentials are valid.", schema: checkCredentialsResponse },
    errors: [400, 401, 413, 415, 429],
  },
  {
    method: "post", path: "/api/auth/callback/credentials", operationId: "signIn", tag: "Authentication", auth: "public",
    summary: "Sign in: verifies the credentials (and code) again and sets the session cookie. HTML forms are redirected (302) to /{locale}/home.",
    body: { schema: credentialsBody, types: ["json", "form"] },
    success: { status: 200, description: "Signed in; the session cookie is set.", schema: z.object({ ok: z.literal(true), url: z.string() }), headers: ["Set-Cookie"] },
    errors: [400, 401, 403, 413, 415],
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
    summary: "Update the caller's profile (multipart with an optional avatar image, or JSON).",
    body: { schema: updateProfileBody, types: ["multipart", "json", "form"] },
    success: { status: 200, description: "The updated profile.", schema: profileResponse },
    errors: [400, 401, 409, 413, 415],
  },
  {
    method: "get", path: "/api/user/role", operationId: "getRole", tag: "Users", auth: "session",
    summary: "The caller's role.",
    success: { status: 200, description: "The role.", schema: roleResponse },
    errors: [401],
  },
  {
    method: "post", path: "/api/users", operationId: "createUser", tag: "Users", auth: "session", roles: ADMINS,
    summary: "Create a user. Administrators create in their organization and never a SUPER_ADMIN.",
    body: { schema: createUserBody, types: ["json"] },
    success: { status: 201, description: "The user, in the profile format.", schema: profileResponse },
    errors: [400, 401, 403, 404, 409, 413, 415],
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
    query: z.strictObject({ format: z.enum(["json"]).default("json") }),
    success: { status: 200, description: "The OpenAPI 3.1 document.", schema: z.object({ openapi: z.string() }).loose() },
    errors: [400],
  },
];

