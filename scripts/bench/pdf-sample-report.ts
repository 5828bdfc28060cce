// The report the PDF benchmarks render (pdf-microbench.ts, font-subset.ts): a realistic 30-question
// report whose names and answers use accented Latin, Polish, Nordic and Vietnamese letters.

import type { ReportDetail } from "../../app/features/reports/report-schemas.ts";

const QUESTIONS = [
  "Over the last four weeks, how often has the respondent found it hard to stay focused on a task until it was finished?",
  "How often does the respondent lose things needed for school or work (books, keys, tools)?",
  "Which of these situations make it harder to concentrate?",
  "How well does the respondent follow instructions with several steps?",
  "Describe a recent situation in which the respondent handled frustration well.",
  "How often does the respondent interrupt others during conversations or games?",
];
const OPTIONS = [
  ["Never", "Rarely", "Sometimes", "Often"],
  ["At home", "At school", "With friends", "During sport"],
  ["Not at all", "A little", "Quite a lot", "Very much"],
];
const TEXT_ANSWERS = [
  "Thảo Nguyễn said José Muñoz stayed calm when the group project was late; he asked Łukasz Wójcik for help and finished on time.",
  "Mostly in the afternoons, after lunch; much better with short breaks. Søren and Åsa noticed the same at the after-school club.",
];

/** The benchmarks' report: 30 questions of every type, names and answers in accented Latin. */
export function buildReport(): ReportDetail {
  const types = ["SINGLE_CHOICE", "MULTIPLE_CHOICE", "SCALE", "SINGLE_CHOICE", "TEXT"] as const;
  const answers: ReportDetail["answers"] = Array.from({ length: 30 }, (_, i) => {
    const type = types[i % types.length]!;
    const options = OPTIONS[i % OPTIONS.length]!;
    return {
      questionId: `q${i + 1}`,
      questionText: `${QUESTIONS[i % QUESTIONS.length]} (${i + 1})`,
      type,
      optionTexts: type === "TEXT" ? [] : type === "MULTIPLE_CHOICE" ? [options[0]!, options[2]!] : [options[i % 4]!],
      text: type === "TEXT" ? TEXT_ANSWERS[i % TEXT_ANSWERS.length]! : null,
      score: type === "TEXT" ? 0 : i % 4,
      maxScore: type === "TEXT" ? 0 : 3,
    };
  });
  const totalScore = answers.reduce((sum, answer) => sum + answer.score, 0);
  const maxScore = answers.reduce((sum, answer) => sum + answer.maxScore, 0);
  return {
    id: "sub_bench_0001",
    studentName: "José Muñoz",
    formTitle: "Attention and self-regulation screening (ages 8–14)",
    completedAt: new Date("2026-03-12T23:30:00Z"),
    assignedAt: new Date("2026-03-02T09:15:00Z"),
    display: "PERCENT",
    totalScore,
    subscales: [],
    flags: [],
    flaggedAt: null,
    acknowledgedAt: null,
    acknowledgedBy: null,
    acknowledgementNote: null,
    maxScore,
    percentage: (totalScore / maxScore) * 100,
    scoreLabel: "Monitor",
    scoreColor: "#F0B429",
    assignedByName: "Łukasz Wójcik",
    form: { id: "form_1", title: "Attention and self-regulation screening (ages 8–14)", category: "Neurodevelopment", type: "Screening" },
    respondent: { kind: "student", id: "stu_1", name: "José Muñoz", externalId: null, dateOfBirth: null, grade: "5º B", age: 11 },
    assignedBy: { id: "usr_1", name: "Łukasz Wójcik" },
    organization: { id: "org_1", name: "Clínica Zoë Ørsted — Thảo Nguyễn Centre" },
    scoreRanges: [
      { min: 0, max: 20, label: "Typical", color: "#3EBD93" },
      { min: 21, max: 40, label: "Monitor", color: "#F0B429" },
      { min: 41, max: 60, label: "Needs attention", color: "#D64545" },
      { min: 61, max: 90, label: "Refer to specialist", color: "#8E1B1B" },
    ],
    answers,
  };
}
