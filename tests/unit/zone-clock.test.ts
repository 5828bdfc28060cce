import { describe, expect, it } from "vitest";
import { zoneClock } from "../../app/lib/zoned-time.ts";

/**
 * The clock the exports write times with (docs/api-contract.md §23, ADR 49): the local time with its offset,
 * and the wall clock for a spreadsheet's date cell. It asks Intl once per UTC day, so the days on
 * which a zone changes its offset are where it could go wrong.
 */

/** What Intl says on its own for one instant: the local time and the `GMT-03:00` offset, read afresh. */
function expected(instant: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "longOffset",
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  const offset = parts.timeZoneName === "GMT" ? "+00:00" : parts.timeZoneName!.slice(3);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

describe("zoneClock", () => {
  it("given São Paulo, should write the local time with its offset, and the wall clock as a zone-less date", () => {
    const clock = zoneClock("America/Sao_Paulo");
    const instant = new Date("2026-11-29T05:53:00.000Z");
    expect(clock.iso(instant)).toBe("2026-11-29T02:53:00-03:00");
    expect(clock.wallClock(instant).toISOString()).toBe("2026-11-29T02:53:00.000Z");
    expect(clock.iso(new Date("2026-11-29T01:59:59.999Z"))).toBe("2026-11-28T22:59:59-03:00");
  });

  it("given UTC, a zone east of it and one off the hour, should write their offsets", () => {
    expect(zoneClock("UTC").iso(new Date("2026-01-02T03:04:05Z"))).toBe("2026-01-02T03:04:05+00:00");
    expect(zoneClock("Asia/Tokyo").iso(new Date("2026-01-02T20:00:00Z"))).toBe("2026-01-03T05:00:00+09:00");
    expect(zoneClock("Asia/Kathmandu").iso(new Date("2026-01-02T00:00:00Z"))).toBe("2026-01-02T05:45:00+05:45");
    expect(zoneClock("America/St_Johns").iso(new Date("2026-01-02T00:00:00Z"))).toBe("2026-01-01T20:30:00-03:30");
  });

  it("given an unknown zone, should write UTC", () => {
    expect(zoneClock("Mars/Olympus_Mons").iso(new Date("2026-01-02T03:04:05Z"))).toBe("2026-01-02T03:04:05+00:00");
  });

  it.each([
    // Spring forward at 02:00 local (07:00Z) and back at 02:00 local (06:00Z).
    ["America/New_York", "2026-03-08T00:00:00Z"],
    ["America/New_York", "2026-11-01T00:00:00Z"],
    // At 01:00Z, the change falls on the hour in UTC.
    ["Europe/Lisbon", "2026-03-29T00:00:00Z"],
    ["Europe/Lisbon", "2026-10-25T00:00:00Z"],
    // Half an hour at a time, at 02:00 local (15:00Z and 14:30Z).
    ["Australia/Lord_Howe", "2026-04-04T12:00:00Z"],
    ["Australia/Lord_Howe", "2026-10-03T12:00:00Z"],
    // São Paulo's last summer time ended on 2019-02-17 at midnight local (02:00Z).
    ["America/Sao_Paulo", "2019-02-16T12:00:00Z"],
  ])("given %s around its change on %s, should agree with Intl minute by minute", (timeZone, from) => {
    const clock = zoneClock(timeZone);
    const start = Date.parse(from);
    for (let minute = 0; minute < 36 * 60; minute += 1) {
      const instant = new Date(start + minute * 60_000 + 17_000);
      expect(clock.iso(instant), instant.toISOString()).toBe(expected(instant, timeZone));
      const wall = clock.iso(instant).slice(0, 19);
      expect(clock.wallClock(instant).toISOString(), instant.toISOString()).toBe(`${wall}.000Z`);
    }
  });

  it("given instants spread over years in any order, should agree with Intl for each", () => {
    for (const timeZone of ["Europe/Madrid", "America/Sao_Paulo", "Australia/Sydney", "Pacific/Chatham", "Africa/Casablanca"]) {
      const clock = zoneClock(timeZone);
      let seed = 7;
      for (let i = 0; i < 2000; i++) {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        const instant = new Date(Date.parse("2015-01-01T00:00:00Z") + (seed / 2 ** 31) * 15 * 365 * 86_400_000);
        instant.setUTCMilliseconds(0);
        expect(clock.iso(instant), `${timeZone} ${instant.toISOString()}`).toBe(expected(instant, timeZone));
      }
    }
  });
});
