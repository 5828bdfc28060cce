import { useForm } from "@conform-to/react/future";
import { Form } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/profile.tokens";
import { Alert } from "~/components/alert.tsx";
import { Button } from "~/components/button.tsx";
import { CopyField } from "~/components/copy-field.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { Field, Radio } from "~/components/field.tsx";
import { pageFormOptions } from "~/components/page-form.ts";
import { Section } from "~/components/page-header.tsx";
import { RowAction } from "~/components/row-action.tsx";
import { createApiTokenBody } from "~/features/tokens/api-token-schemas.ts";
import { READ_ONLY, READ_WRITE } from "~/features/tokens/token-scopes.ts";
import { createApiToken, deleteApiToken, listApiTokens } from "~/features/tokens/api-tokens.server.ts";
import { profilePageMeta } from "~/components/profile/profile-page.ts";
import { useFormat, useT } from "~/i18n/hooks.ts";
import { clientValidation } from "~/lib/client-validation.server.ts";
import { redirectWithFlash } from "~/lib/flash.server.ts";
import { resolveLocale } from "~/lib/i18n.ts";
import { forPage, pageActor, pageError, parsePageForm, postedIntent, readPagePost, pageTranslations } from "~/lib/page.server.ts";
import { paths } from "~/lib/paths.ts";
import { idSchema } from "~/lib/schemas.ts";
import { createShownOnce } from "~/lib/shown-once.server.ts";

/**
 * The signed-in user's personal API tokens (docs/api-contract.md §14), a page of the profile, from the same service as
 * /api/user/tokens: create one (shown once, in the answer to the post, never again), read only or
 * read and write, see when each was last used, delete one.
 */

/** A row's "Delete" button: the token's id (DELETE /api/user/tokens/:id has it in its path). */
const deleteTokenForm = z.strictObject({ id: idSchema });

/** A radio button posts one value: its scopes, space-separated as in OAuth ("read write"). */
const scopesValue = (scopes: readonly string[]) => scopes.join(" ");

/** The API's `scopes` list from the chosen radio button, before the API's schema reads the form. */
function withScopesListed(formData: FormData): FormData {
  const chosen = formData.get("scopes");
  if (typeof chosen !== "string") return formData;
  formData.delete("scopes");
  for (const scope of chosen.split(" ")) formData.append("scopes", scope);
  return formData;
}

export const meta: Route.MetaFunction = (args) => profilePageMeta(args, (t) => t.apiTokens.title);

export async function loader({ context, params }: Route.LoaderArgs) {
  const { tokens } = await listApiTokens(pageActor(context));
  return { tokens, validation: clientValidation(createApiTokenBody, pageTranslations(context, params.locale)) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = pageActor(context);
  const locale = resolveLocale(params.locale);
  const t = pageTranslations(context, locale);
  const formData = await readPagePost(request);
  if (postedIntent(formData, ["delete"])) {
    // A row's button: its id is a hidden field, so a malformed one names no token there is (the 404 page).
    const form = parsePageForm(formData, deleteTokenForm, t, { skip: ["intent"] });
    if (!form.ok) throw pageError(404);
    await forPage(deleteApiToken(actor, form.value.id));
    throw await redirectWithFlash(paths.apiTokens(locale), { kind: "success", key: "apiTokenDeleted" });
  }
  return createShownOnce(withScopesListed(formData), createApiTokenBody, t, async (input) => {
    const created = await createApiToken(actor, input);
    return { name: created.name, token: created.token };
  });
}

export default function ApiTokens({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const format = useFormat();
  const { form, fields } = useForm(pageFormOptions(loaderData.validation, actionData?.result));
  const created = actionData?.created ?? null;
  // Read and write unless the post that came back chose read only.
  const readOnly = scopesValue(fields.scopes.defaultOptions ?? []) === scopesValue(READ_ONLY);
  const scopesError = fields.scopes.errors?.[0];
  return (
    <div className="max-w-3xl space-y-6">
      {/* The profile's layout has the page's h1: this page is one of its sections. */}
      <div>
        <h2 className="text-lg font-semibold text-slate-900">{t.apiTokens.title}</h2>
        <p className="mt-1 text-sm text-slate-600">{t.apiTokens.description}</p>
      </div>
      {created ? (
        <Alert tone="success" title={t.apiTokens.created}>
          <div className="mt-3">
            <CopyField id="new-token" label={`${t.apiTokens.tokenLabel}: ${created.name}`} value={created.token} />
          </div>
        </Alert>
      ) : null}

      <Form method="post" className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6" {...form.props}>
        <CsrfInput />
        <Field
          label={t.apiTokens.name}
          id="name"
          name={fields.name.name}
          defaultValue={fields.name.defaultValue}
          error={fields.name.errors}
          required
          maxLength={100}
        />
        <Field
          label={t.apiTokens.expiresAt}
          description={t.apiTokens.expiresHint}
          id="expiresAt"
          name={fields.expiresAt.name}
          type="date"
          defaultValue={fields.expiresAt.defaultValue}
          error={fields.expiresAt.errors}
          className="sm:w-56"
        />
        <fieldset aria-describedby={scopesError ? "scopes-error" : undefined}>
          <legend className="text-sm font-medium text-slate-900">{t.apiTokens.scopes}</legend>
          <div className="mt-2 space-y-2">
            {[
              { scopes: READ_WRITE, label: t.apiTokens.readWrite, description: t.apiTokens.readWriteHint, checked: !readOnly },
              { scopes: READ_ONLY, label: t.apiTokens.readOnly, description: t.apiTokens.readOnlyHint, checked: readOnly },
            ].map((choice) => (
              <Radio
                key={choice.label}
                id={`scopes-${choice.scopes.join("-")}`}
                name={fields.scopes.name}
                value={scopesValue(choice.scopes)}
                label={choice.label}
                description={choice.description}
                defaultChecked={choice.checked}
              />
            ))}
          </div>
          {scopesError ? (
            <p id="scopes-error" className="mt-1.5 text-sm font-medium text-red-700">
              {scopesError}
            </p>
          ) : null}
        </fieldset>
        <Button type="submit" name="intent" value="create" variant="primary" pendingText={t.common.working}>
          {t.apiTokens.create}
        </Button>
      </Form>

      <Section id="tokens" title={t.apiTokens.listTitle}>
        {loaderData.tokens.length === 0 ? (
          <p className="px-4 py-5 text-sm text-slate-600 sm:px-5">{t.apiTokens.none}</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {loaderData.tokens.map((token) => (
              <li key={token.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-5">
                <div className="min-w-0">
                  <p className="font-medium wrap-anywhere text-slate-900">{token.name}</p>
                  <p className="text-sm text-slate-600">
                    {scopesValue(token.scopes) === scopesValue(READ_ONLY) ? t.apiTokens.readOnly : t.apiTokens.readWrite}
                    <span aria-hidden="true"> · </span>
                    {t.apiTokens.createdAt(format.date(token.createdAt))}
                    <span aria-hidden="true"> · </span>
                    {token.lastUsedAt ? t.apiTokens.lastUsed(format.dateTime(token.lastUsedAt)) : t.apiTokens.neverUsed}
                    <span aria-hidden="true"> · </span>
                    {token.expiresAt ? t.apiTokens.expires(format.dateTime(token.expiresAt)) : t.apiTokens.noExpiry}
                  </p>
                </div>
                <RowAction intent="delete" values={{ id: token.id }} label={t.apiTokens.delete} name={t.apiTokens.deleteNamed(token.name)} />
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}
