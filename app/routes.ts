import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

/**
 * Every URL the service answers. The `/api` block is the whole HTTP API; the OpenAPI document is
 * generated from these routes and what each module declares about its methods (app/features/openapi).
 */
export default [
  index("routes/index.ts"),
  route("healthz", "routes/healthz.ts"),

  ...prefix("api", [
    route("auth/csrf", "routes/api/auth.csrf.ts"),
    route("auth/check-credentials", "routes/api/auth.check-credentials.ts"),
    route("auth/callback/credentials", "routes/api/auth.callback.credentials.ts"),
    route("auth/session", "routes/api/auth.session.ts"),
    route("auth/signout", "routes/api/auth.signout.ts"),
    route("auth/oidc", "routes/api/auth.oidc.ts"),
    route("auth/oidc/callback", "routes/api/auth.oidc.callback.ts"),
    route("auth/forgot-password", "routes/api/auth.forgot-password.ts"),
    route("auth/reset-password", "routes/api/auth.reset-password.ts"),
    route("auth/two-factor/setup", "routes/api/auth.two-factor.setup.ts"),
    route("auth/two-factor/enable", "routes/api/auth.two-factor.enable.ts"),
    route("auth/two-factor/disable", "routes/api/auth.two-factor.disable.ts"),

    route("forms", "routes/api/forms.ts"),
    route("forms/:id", "routes/api/forms.$id.ts"),
    route("forms/:id/summary", "routes/api/forms.$id.summary.ts"),

    route("students", "routes/api/students.ts"),
    route("students/import", "routes/api/students.import.ts"),
    route("students/:id", "routes/api/students.$id.ts"),

    route("candidates", "routes/api/candidates.ts"),
    route("candidates/import", "routes/api/candidates.import.ts"),
    route("candidates/:id", "routes/api/candidates.$id.ts"),
    route("candidates/:id/promote", "routes/api/candidates.$id.promote.ts"),

    route("groups", "routes/api/groups.ts"),
    route("groups/:id", "routes/api/groups.$id.ts"),
    route("groups/:id/members", "routes/api/groups.$id.members.ts"),

    route("organization", "routes/api/organization.ts"),

    route("user/profile", "routes/api/user.profile.ts"),
    route("user/role", "routes/api/user.role.ts"),
    route("user/assignments", "routes/api/user.assignments.ts"),
    route("user/password", "routes/api/user.password.ts"),
    route("users", "routes/api/users.ts"),
    route("users/:id", "routes/api/users.$id.ts"),
    route("users/:id/sessions/revoke", "routes/api/users.$id.sessions.revoke.ts"),
    route("users/:id/avatar", "routes/api/users.$id.avatar.ts"),

    route("submissions", "routes/api/submissions.ts"),
    route("submissions/bulk", "routes/api/submissions.bulk.ts"),
    route("submissions/remind", "routes/api/submissions.remind.ts"),
    route("submissions/:id", "routes/api/submissions.$id.ts"),
    route("submissions/:id/revoke", "routes/api/submissions.$id.revoke.ts"),
    route("submissions/:id/send", "routes/api/submissions.$id.send.ts"),
    route("test-link/:token", "routes/api/test-link.$token.ts"),
    route("test-link/:token/submit", "routes/api/test-link.$token.submit.ts"),
    route("test-link/:token/draft", "routes/api/test-link.$token.draft.ts"),

    route("reports", "routes/api/reports.ts"),
    route("reports/export", "routes/api/reports.export.ts"),
    route("reports/:submissionId", "routes/api/reports.$submissionId.ts"),

    route("openapi", "routes/api/openapi.ts"),
    route("*", "routes/api/not-found.ts"),
  ]),

  route(":locale", "routes/locale.tsx", [
    route("login", "routes/login.tsx"),
    route("login/oidc-error", "routes/login.oidc-error.tsx"),
    route("forgot-password", "routes/forgot-password.tsx"),
    route("reset-password", "routes/reset-password.tsx"),
    route("test/:token", "routes/test.tsx"),
    layout("routes/signed-in.tsx", [
      route("home", "routes/home.tsx"),
      route("forms", "routes/forms.tsx"),
      route("forms/new", "routes/forms.new.tsx"),
      route("forms/templates", "routes/forms.templates.tsx"),
      route("forms/:id", "routes/forms.$id.tsx"),
      route("forms/:id/delete", "routes/forms.$id.delete.tsx"),
      route("forms/:id/preview", "routes/forms.$id.preview.tsx"),
      route("forms/:id/summary", "routes/forms.$id.summary.tsx"),
      route("students", "routes/students.tsx"),
      route("students/new", "routes/students.new.tsx"),
      route("students/import", "routes/students.import.tsx"),
      route("students/:id", "routes/students.$id.tsx"),
      route("students/:id/edit", "routes/students.$id.edit.tsx"),
      route("candidates", "routes/candidates.tsx"),
      route("candidates/new", "routes/candidates.new.tsx"),
      route("candidates/import", "routes/candidates.import.tsx"),
      route("candidates/:id", "routes/candidates.$id.tsx"),
      route("candidates/:id/edit", "routes/candidates.$id.edit.tsx"),
      route("groups", "routes/groups.tsx"),
      route("groups/new", "routes/groups.new.tsx"),
      route("groups/:id", "routes/groups.$id.tsx"),
      route("groups/:id/edit", "routes/groups.$id.edit.tsx"),
      route("profile", "routes/profile.tsx"),
      route("admin/users", "routes/admin.users.tsx"),
      route("admin/organization", "routes/admin.organization.tsx"),
      route("assignments", "routes/assignments.tsx"),
      route("assignments/new", "routes/assignments.new.tsx"),
      route("assignments/:id", "routes/assignments.$id.tsx"),
      route("reports", "routes/reports.tsx"),
      route("reports/:submissionId", "routes/reports.$submissionId.tsx"),
      route("reports/:submissionId/pdf", "routes/reports.$submissionId.pdf.tsx"),
    ]),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
