import { describe, expect, it } from "vitest";
import { developmentDetails } from "../../app/components/error-page.tsx";
import { navigationFor } from "../../app/components/navigation.ts";
import { pageWindow } from "../../app/components/pagination.tsx";
import { dictionaries } from "../support/dictionaries.ts";
import { createFormat } from "../../app/i18n/format.ts";
import { contrastRatio, parseHexColor, readableTextOn, relativeLuminance } from "../../app/lib/color.ts";
import { createFlashStore } from "../../app/lib/flash.server.ts";
import { LOCALES, negotiateLocale, pathInLocale } from "../../app/lib/i18n.ts";
import { dayIn, endOfDayIn, startOfDayIn, startOfMonthIn } from "../../app/lib/zoned-time.ts";

describe("negotiateLocale", () => {
  it.each([
    ["es-AR,es;q=0.9,en;q=0.8", "es"],
    ["pt-PT,pt;q=0.9", "pt-BR"],
    ["pt-BR", "pt-BR"],
    ["en-GB", "en"],
    ["fr-CA,fr;q=0.9", "en"],
    ["fr-CA, en;q=0.5, es;q=0.8", "es"],
    ["de, pt;q=0.1, es;q=0", "pt-BR"],
    ["*", "en"],
    ["", "en"],
    [null, "en"],
  ])("given Accept-Language %j, should choose %s", (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});

describe("pathInLocale", () => {
  it("given a page, should keep its path and query in the other locale", () => {
    expect(pathInLocale("/es/forms/abc", "?page=2", "pt-BR")).toBe("/pt-BR/forms/abc?page=2");
    expect(pathInLocale("/en/home", "", "es")).toBe("/es/home");
    expect(pathInLocale("/pt-BR", "", "en")).toBe("/en");
  });

  it("given a path without a locale, should put one in front", () => {
    expect(pathInLocale("/nowhere/else", "", "es")).toBe("/es/nowhere/else");
    expect(pathInLocale("/", "", "es")).toBe("/es");
  });
});

describe("the dictionaries", () => {
  const shape = (value: unknown): unknown =>
    typeof value === "object" && value !== null
      ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)]))
      : typeof value === "function"
        ? `function/${value.length}`
        : typeof value;

  it("given every locale, should have exactly the English keys, with the same arguments", () => {
    for (const locale of LOCALES) expect(shape(dictionaries[locale]), locale).toEqual(shape(dictionaries.en));
  });

  it("given every string, should not be empty", () => {
    const strings = (value: unknown): string[] =>
      typeof value === "string" ? [value] : typeof value === "object" && value !== null ? Object.values(value).flatMap(strings) : [];
    for (const locale of LOCALES)
      expect(
        strings(dictionaries[locale]).filter((s) => s.trim() === ""),
        locale,
      ).toEqual([]);
  });
});

describe("createFormat", () => {
  const instant = new Date("2026-03-05T14:05:00Z");

  it("given each locale, should format dates, numbers and percentages its way", () => {
    expect(createFormat("en").number(1234.5)).toBe("1,234.5");
    expect(createFormat("pt-BR").number(1234.5)).toBe("1.234,5");
    expect(createFormat("en").percent(62.5)).toBe("62.5%");
    expect(createFormat("pt-BR").percent(62.5)).toMatch(/^62,5\s?%$/);
    expect(createFormat("es").percent(100)).toMatch(/^100\s?%$/);
    expect(createFormat("en").date(instant)).toBe("Mar 5, 2026");
    expect(createFormat("es").date(instant)).toBe("5 mar 2026");
    expect(createFormat("pt-BR").date(instant)).toBe("5 de mar. de 2026");
  });

  it("given a time zone, should show the local time there, and UTC for an unknown zone", () => {
    expect(createFormat("en", "America/Sao_Paulo").dateTime(instant)).toBe("Mar 5, 2026, 11:05 AM");
    expect(createFormat("en", "Not/AZone").dateTime(instant)).toBe("Mar 5, 2026, 2:05 PM");
    expect(createFormat("en", "Not/AZone").timeZone).toBe("UTC");
  });

  it("given a time zone, should start the month at midnight on the 1st there", () => {
    expect(startOfMonthIn("UTC", instant).toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(startOfMonthIn("America/Sao_Paulo", instant).toISOString()).toBe("2026-03-01T03:00:00.000Z");
    expect(startOfMonthIn("Asia/Tokyo", new Date("2026-02-28T16:00:00Z")).toISOString()).toBe("2026-02-28T15:00:00.000Z");
  });

  it("given a day, should give its first and last instant in the organization's time zone", () => {
    expect(startOfDayIn("2026-03-05", "UTC")?.toISOString()).toBe("2026-03-05T00:00:00.000Z");
    expect(endOfDayIn("2026-03-05", "UTC")?.toISOString()).toBe("2026-03-05T23:59:59.999Z");
    expect(endOfDayIn("2026-03-05", "America/Sao_Paulo")?.toISOString()).toBe("2026-03-06T02:59:59.999Z");
    expect(startOfDayIn("2026-03-05", "Asia/Tokyo")?.toISOString()).toBe("2026-03-04T15:00:00.000Z");
    expect(endOfDayIn("2026-12-31", "Asia/Tokyo")?.toISOString()).toBe("2026-12-31T14:59:59.999Z");
  });

  it("given a day next to a daylight-saving change, should follow the zone's clock that day", () => {
    // Madrid moves from UTC+1 to UTC+2 at 02:00 on 29 March 2026: that day has 23 hours.
    expect(startOfDayIn("2026-03-29", "Europe/Madrid")?.toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(endOfDayIn("2026-03-29", "Europe/Madrid")?.toISOString()).toBe("2026-03-29T21:59:59.999Z");
    // New York falls back at 02:00 on 1 November 2026: that day has 25 hours.
    expect(startOfDayIn("2026-11-01", "America/New_York")?.toISOString()).toBe("2026-11-01T04:00:00.000Z");
    expect(endOfDayIn("2026-11-01", "America/New_York")?.toISOString()).toBe("2026-11-02T04:59:59.999Z");
  });

  it("given text that is not a real day, should give null", () => {
    expect(startOfDayIn("2026-02-30", "UTC")).toBeNull();
    expect(endOfDayIn("2026-13-01", "Europe/Madrid")).toBeNull();
    expect(startOfDayIn("yesterday", "UTC")).toBeNull();
  });

  it("given an instant, should name the day it falls on in a zone", () => {
    expect(dayIn(new Date("2026-03-06T02:30:00Z"), "America/Sao_Paulo")).toBe("2026-03-05");
    expect(dayIn(new Date("2026-03-06T02:30:00Z"), "UTC")).toBe("2026-03-06");
    expect(dayIn(new Date("2026-03-05T16:00:00Z"), "Asia/Tokyo")).toBe("2026-03-06");
  });
});

describe("readableTextOn", () => {
  it.each([
    ["#1A7F37", "light"],
    ["#C62828", "light"],
    ["#F9A825", "dark"],
    ["#EF6C00", "dark"],
    ["#FFFFFF", "dark"],
    ["#000", "light"],
    ["not a colour", "dark"],
  ])("given the band colour %s, should use %s text", (color, expected) => {
    expect(readableTextOn(color)).toBe(expected);
  });

  it("given any colour, should reach at least 4.5:1 with the chosen text (WCAG AA)", () => {
    const text = { light: relativeLuminance([255, 255, 255]), dark: relativeLuminance([0, 0, 0]) };
    for (let value = 0; value < 0x1000000; value += 0x10305) {
      const color = `#${value.toString(16).padStart(6, "0")}`;
      const background = relativeLuminance(parseHexColor(color)!);
      expect(contrastRatio(background, text[readableTextOn(color)]), color).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe("pageWindow", () => {
  it.each([
    [1, 1, [1]],
    [1, 3, [1, 2, 3]],
    [5, 10, [1, "gap", 4, 5, 6, "gap", 10]],
    [3, 10, [1, 2, 3, 4, "gap", 10]],
    [10, 10, [1, "gap", 9, 10]],
  ])("given page %i of %i, should show %j", (page, pages, expected) => {
    expect(pageWindow(page, pages)).toEqual(expected);
  });
});

describe("navigationFor", () => {
  it("given each role, should offer what that role may use", () => {
    const keys = (role: Parameters<typeof navigationFor>[0]) => navigationFor(role).map((item) => item.key);
    expect(keys("STUDENT")).toEqual(["home", "profile"]);
    expect(keys("TEACHER")).toEqual(["home", "forms", "library", "students", "candidates", "groups", "assignments", "schedules", "reports"]);
    expect(keys("ADMIN")).toContain("admin");
    expect(keys("SUPER_ADMIN")).toContain("admin");
    expect(
      navigationFor("ADMIN")
        .find((item) => item.key === "admin")!
        .href("es"),
    ).toBe("/es/admin/users");
  });
});

describe("flash messages", () => {
  const store = createFlashStore({ secrets: ["a-test-secret-that-is-long-enough-000"], secure: false });
  const requestWith = (setCookie: string) => new Request("http://app.test/", { headers: { cookie: setCookie.split(";")[0]! } });

  it("given a message set by an action, should read it once and clear the cookie", async () => {
    const read = await store.read(requestWith(await store.set({ kind: "success", key: "saved" })));
    expect(read.flash).toMatchObject({ kind: "success", key: "saved" });
    expect(read.setCookie).toMatch(/^flash=; .*Max-Age=0/);
  });

  it("given a cookie signed with another secret, should show nothing", async () => {
    const other = createFlashStore({ secrets: ["another-secret-entirely-00000000000"], secure: false });
    const read = await store.read(requestWith(await other.set({ kind: "success", key: "saved" })));
    expect(read.flash).toBeNull();
  });

  it("given no flash cookie, should neither read nor clear anything", async () => {
    expect(await store.read(new Request("http://app.test/", { headers: { cookie: "locale=es" } }))).toEqual({ flash: null, setCookie: null });
  });
});

describe("developmentDetails", () => {
  it("given an error, should show its message's first line and never its stack", () => {
    const error = new TypeError("Cannot read properties of undefined (reading 'name')\n    at loader (app/routes/x.tsx:3:4)");
    expect(developmentDetails(error)).toBe("Cannot read properties of undefined (reading 'name')");
  });

  it.each([
    "Invalid `prisma.student.findMany()` invocation: SELECT * FROM Student WHERE name = 'Ana'",
    "SqliteError: UNIQUE constraint failed: User.email",
    "ENOENT: no such file or directory, open '/srv/app/data/session-secret'",
  ])("given a message that may quote SQL, data or a path (%s), should show nothing", (message) => {
    expect(developmentDetails(new Error(message))).toBeUndefined();
  });

  it("given something thrown that is not an error, should show nothing", () => {
    expect(developmentDetails("secret")).toBeUndefined();
  });
});
