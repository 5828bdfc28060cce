import { describe, expect, it } from "vitest";
import { dayOf, occurrenceDueAt, scheduleState, seriesDayFrom } from "../../app/features/schedules/schedule-days.ts";

/**
 * A schedule's days (docs/api-contract.md §18, ADR 76): calendar days in the organization's zone,
 * each occurrence due at the start of its day there, whatever daylight saving does in between.
 */
describe("a schedule's days", () => {
  it("given a posted day or date-time, should keep the day it stands for in the zone, and refuse one that is not a day", () => {
    expect(dayOf("2030-03-02", "Asia/Tokyo")).toBe("2030-03-02");
    expect(dayOf("2030-03-01T20:00:00Z", "Asia/Tokyo")).toBe("2030-03-02");
    expect(dayOf("2030-03-02T02:00:00-05:00", "UTC")).toBe("2030-03-02");
    expect(dayOf("2030-03-02T02:00:00+01:00", "UTC")).toBe("2030-03-02");
    expect(dayOf("2030-03-02T00:30:00+01:00", "UTC")).toBe("2030-03-01");
    expect(dayOf("2030-02-30", "UTC")).toBeNull();
  });

  it("given days around the changes of summer time, should start each at its local midnight", () => {
    // Madrid: summer time from 02:00 on Sunday 31 March 2030, winter time from 03:00 on Sunday 27 October 2030.
    expect(occurrenceDueAt("2030-03-30", "Europe/Madrid").toISOString()).toBe("2030-03-29T23:00:00.000Z");
    expect(occurrenceDueAt("2030-03-31", "Europe/Madrid").toISOString()).toBe("2030-03-30T23:00:00.000Z");
    expect(occurrenceDueAt("2030-04-01", "Europe/Madrid").toISOString()).toBe("2030-03-31T22:00:00.000Z");
    expect(occurrenceDueAt("2030-10-27", "Europe/Madrid").toISOString()).toBe("2030-10-26T22:00:00.000Z");
    expect(occurrenceDueAt("2030-10-28", "Europe/Madrid").toISOString()).toBe("2030-10-27T23:00:00.000Z");
    // São Paulo has no summer time since 2019: a fixed UTC−3.
    expect(occurrenceDueAt("2030-01-15", "America/Sao_Paulo").toISOString()).toBe("2030-01-15T03:00:00.000Z");
  });

  it("given a series resumed later, should go on from its first day that is today or later", () => {
    expect(seriesDayFrom("2030-03-04", 7, "2030-03-01")).toBe("2030-03-04");
    expect(seriesDayFrom("2030-03-04", 7, "2030-03-04")).toBe("2030-03-04");
    expect(seriesDayFrom("2030-03-04", 7, "2030-03-05")).toBe("2030-03-11");
    expect(seriesDayFrom("2030-03-04", 7, "2030-03-11")).toBe("2030-03-11");
    expect(seriesDayFrom("2030-03-04", 1, "2030-04-02")).toBe("2030-04-02");
    expect(seriesDayFrom("2030-12-30", 30, "2031-03-01")).toBe("2031-03-30");
  });

  it("given its count, its last day, its form and its group, should say whether it runs, is paused or has ended and why", () => {
    const base = { pausedAt: null, count: null, occurrencesRun: 2, endsOn: null, nextOn: "2030-03-18", form: { deletedAt: null }, group: null };
    expect(scheduleState(base)).toEqual({ status: "ACTIVE", endedBecause: null });
    expect(scheduleState({ ...base, pausedAt: new Date() })).toEqual({ status: "PAUSED", endedBecause: null });
    expect(scheduleState({ ...base, count: 3 })).toEqual({ status: "ACTIVE", endedBecause: null });
    expect(scheduleState({ ...base, count: 2 })).toEqual({ status: "ENDED", endedBecause: "FINISHED" });
    expect(scheduleState({ ...base, endsOn: "2030-03-18" })).toEqual({ status: "ACTIVE", endedBecause: null });
    expect(scheduleState({ ...base, endsOn: "2030-03-17", pausedAt: new Date() })).toEqual({ status: "ENDED", endedBecause: "FINISHED" });
    expect(scheduleState({ ...base, form: { deletedAt: new Date() } })).toEqual({ status: "ENDED", endedBecause: "FORM_DELETED" });
    expect(scheduleState({ ...base, group: { deletedAt: new Date() } })).toEqual({ status: "ENDED", endedBecause: "GROUP_DELETED" });
  });
});
