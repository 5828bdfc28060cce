import { describe, expect, it } from "vitest";
import { api, baseUrl, freshIp, unique } from "../support/api.ts";
import { createForm, mediumAnswers, type CreatedForm } from "../support/assessment.ts";

/** `size` links to one form, made as a school makes them: a class list imported, then assigned at once. */
async function classLinks(size: number): Promise<{ form: CreatedForm; tokens: string[] }> {
  const tag = unique("limits").replaceAll("-", "");
  const csv = ["name,group", ...Array.from({ length: size }, (_, i) => `Pupil ${i} ${tag},Year ${tag}`)].join("\n");
  const imported = await api("POST", "/api/students/import", { as: "teacher@demo.test", body: csv, headers: { "content-type": "text/csv" } });
  expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).toBe(201);
  const group = (await api("GET", `/api/groups?search=${tag}`, { as: "teacher@demo.test" })).body.groups[0];
  const form = await createForm("teacher@demo.test");
  const bulk = await api("POST", "/api/submissions/bulk", { as: "teacher@demo.test", json: { formId: form.id, groupId: group.id } });
  expect(bulk.status).toBe(201);
  return { form, tokens: bulk.body.created.map((link: { token: string }) => link.token) };
}

/** Runs `work` over `items`, `width` at a time (a busy school, not a flood). */
async function inBatches<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width) results.push(...(await Promise.all(items.slice(i, i + width).map(work))));
  return results;
}

describe("a whole school behind one address (ADR 47)", { timeout: 300_000 }, () => {
  it("given 1,000 pupils submitting from one address within 10 minutes, should accept every one", async () => {
    const { form, tokens } = await classLinks(1000);
    const school = freshIp();
    const statuses = await inBatches(tokens, 10, async (token) => {
      const response = await api("POST", `/api/test-link/${token}/submit`, { json: mediumAnswers(form), headers: { "x-forwarded-for": school } });
      return response.status;
    });
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  it("given 700 pupils opening their own links from one address, should open every one", async () => {
    const { tokens } = await classLinks(700);
    const school = freshIp();
    const statuses = await inBatches(
      tokens,
      10,
      async (token) => (await api("GET", `/api/test-link/${token}`, { headers: { "x-forwarded-for": school } })).status,
    );
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });

  it("given one link saved and submitted more than 120 times in 10 minutes, should refuse that link alone", async () => {
    const { form, tokens } = await classLinks(2);
    const [busy, other] = tokens as [string, string];
    const school = freshIp();
    const saves = await inBatches(Array.from({ length: 120 }), 10, async () => {
      const response = await api("PUT", `/api/test-link/${busy}/draft`, { json: { answers: [] }, headers: { "x-forwarded-for": school } });
      return response.status;
    });
    expect(saves.filter((status) => status !== 200)).toEqual([]);
    const refused = await api("POST", `/api/test-link/${busy}/submit`, { json: mediumAnswers(form), headers: { "x-forwarded-for": freshIp() } });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(500);
    const neighbour = await api("POST", `/api/test-link/${other}/submit`, { json: mediumAnswers(form), headers: { "x-forwarded-for": school } });
    expect(neighbour.status).toBe(200);
  });
});

describe("token guessing (ADR 47)", { timeout: 120_000 }, () => {
  const guess = () => `guess${unique("token").replaceAll("-", "")}aaaaaaaaaaaaaaaaaaaa`;

  it("given 100 unknown tokens from one address, should refuse that address with Retry-After, on the API and the page in its language", async () => {
    const { tokens } = await classLinks(1);
    const guesser = freshIp();
    const misses = await inBatches(
      Array.from({ length: 100 }),
      10,
      async () => (await api("GET", `/api/test-link/${guess()}`, { headers: { "x-forwarded-for": guesser } })).status,
    );
    expect(misses.filter((status) => status !== 404)).toEqual([]);

    const refused = await api("GET", `/api/test-link/${guess()}`, { headers: { "x-forwarded-for": guesser } });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ status: 429, code: "RATE_LIMITED" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(500);
    expect((await api("POST", `/api/test-link/${guess()}/submit`, { json: { answers: [] }, headers: { "x-forwarded-for": guesser } })).status).toBe(429);

    const page = await fetch(`${baseUrl()}/pt-BR/test/${guess()}`, { headers: { "x-forwarded-for": guesser } });
    expect(page.status).toBe(429);
    expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(500);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).toContain("Tentativas demais");
    expect(html).toContain("Foram tentados links de teste demais a partir desta rede");

    // Everyone else, and every link opened from another address, goes on as usual.
    expect((await fetch(`${baseUrl()}/es/test/${tokens[0]}`, { headers: { "x-forwarded-for": freshIp() } })).status).toBe(200);
    expect((await api("GET", `/api/test-link/${guess()}`, { headers: { "x-forwarded-for": freshIp() } })).status).toBe(404);
  });

  it("given the page guessed from one address, should count its misses with the API's and answer in Spanish", async () => {
    const guesser = freshIp();
    const pages = await inBatches(Array.from({ length: 100 }), 10, async () => {
      const response = await fetch(`${baseUrl()}/es/test/${guess()}`, { headers: { "x-forwarded-for": guesser } });
      await response.arrayBuffer();
      return response.status;
    });
    expect(pages.filter((status) => status !== 404)).toEqual([]);
    const page = await fetch(`${baseUrl()}/es/test/${guess()}`, { headers: { "x-forwarded-for": guesser } });
    expect(page.status).toBe(429);
    expect(Number(page.headers.get("retry-after"))).toBeGreaterThan(0);
    const html = await page.text();
    expect(html).toContain("Demasiados intentos");
    expect(html).toContain("Se probaron demasiados enlaces de prueba desde esta red");
    expect((await api("GET", `/api/test-link/${guess()}`, { headers: { "x-forwarded-for": guesser } })).status).toBe(429);
  });
});
