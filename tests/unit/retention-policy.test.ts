import { describe, expect, it } from "vitest";
import { privacyNoticeIn, readPrivacyNotice, storedPrivacyNotice } from "~/features/organization/privacy-notice.ts";
import { cutoffsOf, monthsBefore, nextRetentionRun, policyColumns, policyOf } from "~/features/retention/retention-policy.ts";

const at = (iso: string) => new Date(iso);

describe("the instants a retention policy is read against", () => {
  it("goes back whole calendar months, keeping the time, a day the month lacks becoming its last", () => {
    expect(monthsBefore(at("2026-05-14T09:30:00.250Z"), 1)).toEqual(at("2026-04-14T09:30:00.250Z"));
    expect(monthsBefore(at("2026-05-14T09:30:00.000Z"), 24)).toEqual(at("2024-05-14T09:30:00.000Z"));
    expect(monthsBefore(at("2026-01-10T00:00:00.000Z"), 13)).toEqual(at("2024-12-10T00:00:00.000Z"));
    expect(monthsBefore(at("2026-03-31T12:00:00.000Z"), 1)).toEqual(at("2026-02-28T12:00:00.000Z"));
    expect(monthsBefore(at("2028-03-31T12:00:00.000Z"), 1)).toEqual(at("2028-02-29T12:00:00.000Z"));
    expect(monthsBefore(at("2026-07-31T23:59:59.999Z"), 600)).toEqual(at("1976-07-31T23:59:59.999Z"));
  });

  it("runs next at the start of the following day where the organization is", () => {
    expect(nextRetentionRun(at("2026-03-01T14:59:59.999Z"), "UTC")).toEqual(at("2026-03-02T00:00:00.000Z"));
    // 15:00 UTC on 1 March is already 2 March in Tokyo (UTC+9): the next start is 3 March there.
    expect(nextRetentionRun(at("2026-03-01T15:00:00.000Z"), "Asia/Tokyo")).toEqual(at("2026-03-02T15:00:00.000Z"));
    // The night Madrid moves to summer time (29 March 2026): the next day starts at 22:00 UTC.
    expect(nextRetentionRun(at("2026-03-29T10:00:00.000Z"), "Europe/Madrid")).toEqual(at("2026-03-29T22:00:00.000Z"));
  });

  it("reads a policy out of the columns and back, a rule left out being off", () => {
    const columns = policyColumns({ resultsMonths: 24, action: "DELETE" });
    expect(columns).toEqual({ retentionResultsMonths: 24, retentionInactivePeopleMonths: null, retentionAction: "DELETE" });
    const policy = policyOf(columns)!;
    expect(policy).toEqual({ resultsMonths: 24, inactivePeopleMonths: null, action: "DELETE" });
    expect(cutoffsOf(policy, at("2026-05-14T00:00:00.000Z"))).toEqual({ results: at("2024-05-14T00:00:00.000Z"), people: null });
    expect(policyOf(policyColumns(null))).toBeNull();
    expect(policyOf({ retentionResultsMonths: 3, retentionInactivePeopleMonths: null, retentionAction: "ARCHIVE" })).toBeNull();
  });
});

describe("the privacy notice in a respondent's language", () => {
  const notice = { en: "Kept two years.", es: "Guardado dos años." };

  it("shows the respondent's language, else English, else the first language given; one text in every language", () => {
    expect(privacyNoticeIn(notice, "es")).toBe("Guardado dos años.");
    expect(privacyNoticeIn(notice, "pt-BR")).toBe("Kept two years.");
    expect(privacyNoticeIn({ "pt-BR": "Guardado.", es: "Guardado dos años." }, "en")).toBe("Guardado dos años.");
    expect(privacyNoticeIn("One for all.", "pt-BR")).toBe("One for all.");
    expect(privacyNoticeIn(null, "en")).toBeNull();
  });

  it("stores each text trimmed without the empty ones, and reads anything else back as none", () => {
    expect(storedPrivacyNotice({ en: "  Kept.\n", es: " ", "pt-BR": "" })).toEqual({ en: "Kept." });
    expect(storedPrivacyNotice({ es: "" })).toBeNull();
    expect(storedPrivacyNotice("  ")).toBeNull();
    expect(storedPrivacyNotice(" Kept. ")).toBe("Kept.");
    expect(readPrivacyNotice({ en: "Kept.", fr: "Gardé.", es: 3 })).toEqual({ en: "Kept." });
    expect(readPrivacyNotice(["Kept."])).toBeNull();
    expect(readPrivacyNotice(null)).toBeNull();
  });
});
