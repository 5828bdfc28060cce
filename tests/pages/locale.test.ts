import { describe, expect, it } from "vitest";
import { baseUrl, sessionOf } from "../support/api.ts";

/** The language of the pages: chosen from the URL, remembered in a cookie, negotiated at `/`. */
const get = (path: string, headers: Record<string, string> = {}) => fetch(`${baseUrl()}${path}`, { headers, redirect: "manual" });

const localeCookie = (response: Response) => response.headers.getSetCookie().find((cookie) => cookie.startsWith("locale="));

describe("choosing the language", () => {
  it.each([
    ["es-AR,es;q=0.9,en;q=0.8", "/es/home"],
    ["pt-PT,pt;q=0.9", "/pt-BR/home"],
    ["pt-BR", "/pt-BR/home"],
    ["fr-FR,fr;q=0.9,es;q=0.5", "/es/home"],
    ["de-DE", "/en/home"],
  ])("given Accept-Language %s and no cookie, / should redirect to %s", async (acceptLanguage, location) => {
    const response = await get("/", { "accept-language": acceptLanguage });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(location);
    expect(response.headers.get("vary")).toMatch(/Accept-Language/);
  });

  it("given a remembered language, should prefer it to Accept-Language", async () => {
    const response = await get("/", { "accept-language": "es-AR", cookie: "locale=pt-BR" });
    expect(response.headers.get("location")).toBe("/pt-BR/home");
  });

  it("given a cookie with a language we do not speak, should ignore it", async () => {
    const response = await get("/", { "accept-language": "es", cookie: "locale=fr" });
    expect(response.headers.get("location")).toBe("/es/home");
  });

  it("given a page read in another language, should remember it for a year (SameSite=Lax)", async () => {
    const response = await get("/es/home", { cookie: `${sessionOf("teacher@demo.test")}; locale=en` });
    expect(response.status).toBe(200);
    expect(localeCookie(response)).toMatch(/^locale=es; Path=\/; Max-Age=31536000; SameSite=Lax/);
    const again = await get("/es/home", { cookie: `${sessionOf("teacher@demo.test")}; locale=es` });
    expect(localeCookie(again)).toBeUndefined();
  });

  it("given only a locale, should open its home page", async () => {
    const response = await get("/pt-BR");
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/pt-BR/home");
  });
});

describe("pages in each language", () => {
  it("given the home page in Spanish, should render the shell in Spanish with links to the other languages", async () => {
    const response = await get("/es/home", { cookie: sessionOf("teacher@demo.test") });
    const html = await response.text();
    expect(html).toContain('<html lang="es"');
    expect(html).toContain("Saltar al contenido");
    expect(html).toContain("Cerrar sesión");
    expect(html).toContain("Asignaciones pendientes");
    expect(html).toMatch(/<a[^>]*href="\/pt-BR\/home"[^>]*>Português \(Brasil\)</);
    expect(html).toMatch(/<a[^>]*href="\/en\/home"[^>]*>English</);
    expect(html).toMatch(/<title>Inicio · Assessment Service<\/title>/);
  });

  it("given an unknown page, should answer a friendly 404 in the language of the URL", async () => {
    for (const [path, text] of [
      ["/es/no-existe", "Página no encontrada"],
      ["/pt-BR/nao-existe", "Página não encontrada"],
      ["/en/missing", "Page not found"],
      ["/xx/home", "Page not found"],
    ]) {
      const response = await get(path!);
      expect(response.status, path).toBe(404);
      const html = await response.text();
      expect(html, path).toContain(text);
      expect(html, path).toMatch(/<nav aria-label="(Language|Idioma)"/);
    }
  });

  it("given a student's login, should offer only Home and Profile", async () => {
    const html = await (await get("/en/home", { cookie: sessionOf("student@demo.test") })).text();
    const nav = html.match(/<nav aria-label="Main"[\s\S]*?<\/nav>/)?.[0] ?? "";
    expect(nav).toContain(">Home<");
    expect(nav).toContain(">Profile<");
    expect(nav).not.toMatch(/>Forms<|>Students<|>Reports<|>Administration</);
    expect(html).toContain("Your tests");
    expect(html).not.toContain("Recent results");
  });

  it("given an administrator, should add Administration to the navigation", async () => {
    const html = await (await get("/en/home", { cookie: sessionOf("admin@demo.test") })).text();
    expect(html).toMatch(/<a[^>]*href="\/en\/admin\/users"[^>]*>Administration</);
  });
});
