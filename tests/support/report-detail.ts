import type { ReportDetail } from "../../app/features/reports/report-schemas.ts";

/** A completed report in accented Latin (Spanish, Polish, Nordic, Vietnamese names) for the PDF tests, with `overrides` applied. */
export function sampleReport(overrides: Partial<ReportDetail> = {}): ReportDetail {
  return {
    id: "sub_0001",
    studentName: "José Muñoz",
    formTitle: "Attention screening",
    completedAt: new Date("2026-03-12T23:30:00Z"),
    assignedAt: new Date("2026-03-02T09:15:00Z"),
    totalScore: -3,
    maxScore: 12,
    percentage: -25,
    scoreLabel: "Needs attention",
    subscales: [],
    flags: [],
    flaggedAt: null,
    acknowledgedAt: null,
    acknowledgedBy: null,
    acknowledgementNote: null,
    scoreColor: "#D64545",
    assignedByName: "Łukasz Wójcik",
    form: { id: "form_1", title: "Attention screening", category: "Neurodevelopment", type: "Screening" },
    respondent: { kind: "student", id: "stu_1", name: "José Muñoz", grade: "5º B", age: 11 },
    assignedBy: { id: "usr_1", name: "Łukasz Wójcik" },
    organization: { id: "org_1", name: "Clínica Zoë Ørsted" },
    scoreRanges: [
      { min: -12, max: -1, label: "Needs attention", color: "#D64545" },
      { min: 0, max: 5, label: "Monitor", color: "#F0B429" },
      { min: 6, max: 12, label: "Typical", color: "#3EBD93" },
    ],
    answers: [
      {
        questionId: "q1",
        questionText: "How often do you feel worried at school?",
        type: "SINGLE_CHOICE",
        optionTexts: ["Almost every day"],
        text: null,
        score: -3,
        maxScore: 3,
      },
      {
        questionId: "q2",
        questionText: "Which of these help you feel calm?",
        type: "MULTIPLE_CHOICE",
        optionTexts: ["Talking with a friend", "Drawing"],
        text: null,
        score: 3,
        maxScore: 6,
      },
      { questionId: "q3", questionText: "How well did you sleep this week?", type: "SCALE", optionTexts: [], text: null, score: 0, maxScore: 3 },
      {
        questionId: "removed-question",
        questionText: "Anything else you would like to tell us?",
        type: "TEXT",
        optionTexts: [],
        text: "Thảo Nguyễn and Ana Conceição help me study.",
        score: 0,
        maxScore: 0,
      },
    ],
    ...overrides,
  };
}
