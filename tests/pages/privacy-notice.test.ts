import { describe, expect, it } from "vitest";
import { api, baseUrl, postPageForm, type RequestOptions } from "../support/api.ts";
import { type CreatedForm, mediumAnswers, mixedForm } from "../support/assessment.ts";
import { testDatabase } from "../support/database.ts";
import { createOrganization, errorPaths, expectProblem, type OwnOrganization } from "../support/fixtures.ts";

/**
 * The organization's privacy notice (docs/api-contract.md §21, ADR 89) on the public test pages,
 * in the respondent's language, and the settings page that edits it and the retention policy,
 * over plain HTTP without JavaScript. Each test has an organization of its own.
 */
const as = (cookie: string): RequestOptions => ({ cookie });

const ENGLISH = "Notice: Aurora keeps your answers for two years. Write to privacy@aurora.example to see or erase them.";
const SPANISH = "Aviso: Aurora guarda tus respuestas dos años. Escribe a privacy@aurora.example para verlas o borrarlas.";

async function linkOf(organization: OwnOrganization) {
  const form = (await api("POST", "/api/forms", { ...as(organization.teacher), json: mixedForm() })).body as CreatedForm;
  const student = await api("POST", "/api/students", { ...as(organization.teacher), json: { name: "Zoë Ørsted" } });
  const link = await api("POST", "/api/submissions", { ...as(organization.teacher), json: { formId: form.id, studentId: student.body.id } });
  expect(link.status, link.text).toBe(201);
  return { form, id: link.body.id as string, token: link.body.token as string };
}

const setNotice = async (organization: OwnOrganization, privacyNotice: unknown) => {
  const saved = await api("PUT", "/api/organization", { ...as(organization.admin), json: { privacyNotice } });
  expect(saved.status, saved.text).toBe(200);
  return saved.body.privacyNotice;
};

/** The page, and the privacy notice's block in it (null when it has none). */
async function testPage(path: string) {
  const response = await fetch(`${baseUrl()}${path}`);
  const html = await response.text();
  const notice = /<details[^>]*data-testid="privacy-notice"[^>]*>([\s\S]*?)<\/details>/.exec(html)?.[1] ?? null;
  return { status: response.status, html, notice };
}

describe("the privacy notice on the public test pages", () => {
  it("given a notice per language, should show the respondent's language, the default where it has none, on the open, completed and expired page alike", async () => {
    const organization = await createOrganization("Noticing school");
    expect(await setNotice(organization, { en: `  ${ENGLISH}\n`, es: SPANISH, "pt-BR": "" })).toEqual({ en: ENGLISH, es: SPANISH });
    const link = await linkOf(organization);

    const spanish = await testPage(`/es/test/${link.token}`);
    expect(spanish.status).toBe(200);
    expect(spanish.notice).toContain("<summary");
    expect(spanish.notice).toContain("Aviso de privacidad");
    expect(spanish.notice).toContain("Aurora guarda tus respuestas dos años.");
    expect(spanish.html).not.toContain("Aurora keeps your answers");
    const english = await testPage(`/en/test/${link.token}`);
    expect(english.notice).toContain("Privacy notice");
    expect(english.notice).toContain("Aurora keeps your answers for two years.");
    // Portuguese was left empty: the organization's default, English, under Portuguese words.
    const portuguese = await testPage(`/pt-BR/test/${link.token}`);
    expect(portuguese.notice).toContain("Aviso de privacidade");
    expect(portuguese.notice).toContain("Aurora keeps your answers for two years.");

    // The link's JSON carries the notice whole, for a client to choose the language.
    const json = await api("GET", `/api/test-link/${link.token}`);
    expect(json.status).toBe(200);
    expect(json.body.privacyNotice).toEqual({ en: ENGLISH, es: SPANISH });

    // Answered: the end page still has it.
    const submitted = await api("POST", `/api/test-link/${link.token}/submit`, { json: mediumAnswers(link.form) });
    expect(submitted.status, submitted.text).toBe(200);
    const done = await testPage(`/es/test/${link.token}`);
    expect(done.html).toContain("Gracias");
    expect(done.notice).toContain("Aurora guarda tus respuestas");

    // An expired link, too; an unknown one names no organization.
    const expired = await linkOf(organization);
    await testDatabase().submission.update({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const closed = await testPage(`/es/test/${expired.token}`);
    expect(closed.status).toBe(410);
    expect(closed.notice).toContain("Aurora guarda tus respuestas");
    const unknown = await testPage(`/es/test/${"x".repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.notice).toBeNull();
  });

  it("given one text for every language, should show it in each; removed, should show none", async () => {
    const organization = await createOrganization("Plain school");
    expect(await setNotice(organization, ENGLISH)).toBe(ENGLISH);
    const link = await linkOf(organization);
    for (const locale of ["en", "es", "pt-BR"]) expect((await testPage(`/${locale}/test/${link.token}`)).notice).toContain("Aurora keeps your answers");
    expect((await api("GET", `/api/test-link/${link.token}`)).body.privacyNotice).toBe(ENGLISH);
    expect(await setNotice(organization, null)).toBeNull();
    expect((await testPage(`/es/test/${link.token}`)).notice).toBeNull();
    expect((await api("GET", `/api/test-link/${link.token}`)).body.privacyNotice).toBeNull();
    // Empty text is none as well.
    expect(await setNotice(organization, { en: "  ", es: "" })).toBeNull();
  });

  it("given a notice too long, in an unknown language or of another type, should answer 400 naming it", async () => {
    const organization = await createOrganization("Wordy school");
    const refused = async (privacyNotice: unknown, path: string) => {
      const response = await api("PUT", "/api/organization", { ...as(organization.admin), json: { privacyNotice } });
      expectProblem(response, 400, "VALIDATION_FAILED");
      expect(errorPaths(response)).toContain(path);
    };
    await refused("x".repeat(5_001), "privacyNotice");
    await refused({ es: "x".repeat(5_001) }, "privacyNotice.es");
    await refused({ fr: "Avis" }, "privacyNotice.fr");
    await refused(["en"], "privacyNotice");
    expect((await api("PUT", "/api/organization", { ...as(organization.admin), json: { privacyNotice: "x".repeat(5_000) } })).status).toBe(200);
    expectProblem(await api("PUT", "/api/organization", { ...as(organization.teacher), json: { privacyNotice: "Mine" } }), 403);
  });
});

describe("the settings page's retention policy and privacy notice", () => {
  const settings = (organization: OwnOrganization, fields: Record<string, string>, locale = "en") =>
    postPageForm(`/${locale}/admin/organization`, { name: "Settled school", timeZone: "UTC", kind: "SCHOOL", ...fields }, organization.admin);
  const empty = {
    "retention.action": "",
    "retention.resultsMonths": "",
    "retention.inactivePeopleMonths": "",
    "privacyNotice.en": "",
    "privacyNotice.es": "",
    "privacyNotice.pt-BR": "",
  };

  it("given a policy and a notice per language, should save both, show them again, and clear them when left empty", async () => {
    const organization = await createOrganization("Settled school");
    const saved = await settings(organization, {
      ...empty,
      "retention.action": "ANONYMISE",
      "retention.resultsMonths": "24",
      "privacyNotice.es": SPANISH,
    });
    expect(saved.status, await saved.text()).toBe(302);
    const read = (await api("GET", "/api/organization", as(organization.admin))).body;
    expect(read).toMatchObject({ retention: { resultsMonths: 24, inactivePeopleMonths: null, action: "ANONYMISE" }, privacyNotice: { es: SPANISH } });

    const page = await (await fetch(`${baseUrl()}/es/admin/organization`, { headers: { cookie: organization.admin } })).text();
    expect(page).toContain("Conservación de datos");
    expect(page).toMatch(/<option value="ANONYMISE" selected="">/);
    expect(page).toMatch(/name="retention.resultsMonths"[^>]*value="24"|value="24"[^>]*name="retention.resultsMonths"/);
    expect(page).toContain("Aurora guarda tus respuestas dos años.");
    expect(page).toContain('data-testid="retention-preview"');

    const cleared = await settings(organization, empty);
    expect(cleared.status, await cleared.text()).toBe(302);
    expect((await api("GET", "/api/organization", as(organization.admin))).body).toMatchObject({ retention: null, privacyNotice: null });
  });

  it("given an action without months, or months without an action, should say so by each field in the page's language and save nothing", async () => {
    const organization = await createOrganization("Hasty school");
    const noMonths = await settings(organization, { ...empty, "retention.action": "DELETE" }, "es");
    expect(noMonths.status).toBe(400);
    expect(await noMonths.text()).toContain("Indica un número de meses para los resultados, para las personas inactivas o para ambos.");
    const noAction = await settings(organization, { ...empty, "retention.inactivePeopleMonths": "12" }, "pt-BR");
    expect(noAction.status).toBe(400);
    expect(await noAction.text()).toContain("Escolha uma das opções.");
    const tooLong = await settings(organization, { ...empty, "privacyNotice.en": "x".repeat(5_001) });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.text()).toContain("Use at most 5,000 characters.");
    expect((await api("GET", "/api/organization", as(organization.admin))).body).toMatchObject({ retention: null, privacyNotice: null });
  });
});
