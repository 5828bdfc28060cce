/**
 * Every instrument of the library (docs/api-contract.md §17) scored as its published instructions
 * score it (ADR 67): each row gives the answers as the option score printed on the form (null for
 * an item left blank), and the total, band, subscales and flags worked out by hand from the
 * instrument's own scoring rules, which each data file cites. The unit test scores them with the
 * engine; tests/api/instruments.test.ts submits them through a public link of an installed form.
 */

export type Case = {
  name: string;
  /** Per item, in order: the printed score of the chosen option, or null for no answer. */
  scores: (number | null)[];
  total: number | null;
  label: string | null;
  subscales?: Record<string, [score: number | null, label: string | null]>;
  prorated?: boolean;
  flags?: string[];
};

/** `n` items answered `score`, then the rest up to `length` answered `rest`. */
export const run = (length: number, n: number, score: number, rest = 0) => Array.from({ length }, (_, index) => (index < n ? score : rest));

/** Scores per item from the item numbers (1-based) of each group. */
export const byItem = (length: number, groups: [items: number[], scores: (number | null)[]][]) => {
  const scores: (number | null)[] = Array.from({ length }, () => 0);
  for (const [items, values] of groups) {
    items.forEach((item, index) => {
      scores[item - 1] = values[index] === undefined ? 0 : values[index]!;
    });
  }
  return scores;
};

/** The DASS-21's scales, by item number (Lovibond & Lovibond 1995). */
export const DEPRESSION = [3, 5, 10, 13, 16, 17, 21];
export const ANXIETY = [2, 4, 7, 9, 15, 19, 20];
export const STRESS = [1, 6, 8, 11, 12, 14, 18];

export const TABLES: Record<string, Case[]> = {
  "phq-9": [
    { name: "nothing", scores: run(9, 0, 0), total: 0, label: "Minimal" },
    { name: "top of minimal", scores: run(9, 4, 1), total: 4, label: "Minimal" },
    { name: "bottom of mild", scores: run(9, 5, 1), total: 5, label: "Mild" },
    { name: "several days on every item but 9", scores: [1, 1, 1, 1, 1, 1, 1, 1, 0], total: 8, label: "Mild" },
    { name: "bottom of moderate", scores: run(9, 5, 2), total: 10, label: "Moderate" },
    { name: "bottom of moderately severe", scores: [2, 2, 2, 2, 2, 2, 2, 1, 0], total: 15, label: "Moderately severe" },
    { name: "top of moderately severe", scores: [3, 3, 2, 2, 2, 2, 2, 2, 1], total: 19, label: "Moderately severe", flags: ["OPTION q9"] },
    { name: "bottom of severe", scores: [3, 3, 3, 3, 3, 3, 2, 0, 0], total: 20, label: "Severe" },
    { name: "everything, nearly every day", scores: run(9, 9, 3), total: 27, label: "Severe", flags: ["OPTION q9"] },
    // Item 9 above "Not at all" flags whatever the total: 1 + 1 + 1 = 3 is still "Minimal".
    { name: "item 9 with a total of 3", scores: [1, 1, 0, 0, 0, 0, 0, 0, 1], total: 3, label: "Minimal", flags: ["OPTION q9"] },
    // Two items blank: 14 × 9 / 7 = 18.
    { name: "two blank, prorated", scores: [2, 2, 2, 2, 2, 2, 2, null, null], total: 18, label: "Moderately severe", prorated: true },
    // 8 × 9 / 7 = 10.2857… → 10.29.
    { name: "two blank, prorated past a cut-off", scores: [2, 1, 1, 1, 1, 1, 1, null, null], total: 10.29, label: "Moderate", prorated: true },
    { name: "three blank, not scorable", scores: [3, 3, 3, 3, 3, 3, null, null, null], total: null, label: null },
  ],
  "gad-7": [
    { name: "nothing", scores: run(7, 0, 0), total: 0, label: "Minimal" },
    { name: "one item nearly every day", scores: [3, 0, 0, 0, 0, 0, 0], total: 3, label: "Minimal" },
    { name: "top of minimal", scores: run(7, 4, 1), total: 4, label: "Minimal" },
    { name: "bottom of mild", scores: run(7, 5, 1), total: 5, label: "Mild" },
    { name: "top of mild", scores: [2, 2, 2, 1, 1, 1, 0], total: 9, label: "Mild" },
    { name: "bottom of moderate", scores: run(7, 5, 2), total: 10, label: "Moderate" },
    { name: "top of moderate", scores: run(7, 7, 2), total: 14, label: "Moderate" },
    { name: "bottom of severe", scores: [3, 2, 2, 2, 2, 2, 2], total: 15, label: "Severe" },
    { name: "most days", scores: [3, 3, 3, 3, 2, 2, 2], total: 18, label: "Severe" },
    { name: "everything, nearly every day", scores: run(7, 7, 3), total: 21, label: "Severe" },
  ],
  "phq-15": [
    { name: "nothing", scores: run(15, 0, 0), total: 0, label: "Minimal" },
    { name: "top of minimal", scores: run(15, 4, 1), total: 4, label: "Minimal" },
    { name: "bottom of low", scores: run(15, 5, 1), total: 5, label: "Low" },
    { name: "top of low", scores: run(15, 9, 1), total: 9, label: "Low" },
    { name: "bottom of medium", scores: run(15, 5, 2), total: 10, label: "Medium" },
    { name: "top of medium", scores: run(15, 7, 2), total: 14, label: "Medium" },
    { name: "bottom of high", scores: run(15, 15, 1), total: 15, label: "High" },
    { name: "everything a lot", scores: run(15, 15, 2), total: 30, label: "High" },
    // Item 4 is for women only: a man's blank counts 0, his range is 0–28.
    { name: "a man, everything a lot", scores: run(15, 15, 2).map((score, index) => (index === 3 ? null : score)), total: 28, label: "High" },
    { name: "a man, nothing", scores: run(15, 15, 0).map((score, index) => (index === 3 ? null : score)), total: 0, label: "Minimal" },
  ],
  "who-5": [
    // Raw 21 × 4 = 84, the worked example of https://www.simplified.tools/assess_who_5.
    { name: "raw 21", scores: [5, 4, 4, 4, 4], total: 84, label: "Above the screening cut-off" },
    { name: "all of the time", scores: [5, 5, 5, 5, 5], total: 100, label: "Above the screening cut-off" },
    { name: "raw 13", scores: [3, 3, 3, 2, 2], total: 52, label: "Above the screening cut-off" },
    { name: "raw 13 another way", scores: [4, 3, 3, 3, 0], total: 52, label: "Above the screening cut-off" },
    { name: "raw 12", scores: [3, 3, 2, 2, 2], total: 48, label: "Poor well-being" },
    { name: "raw 10", scores: [2, 2, 2, 2, 2], total: 40, label: "Poor well-being" },
    { name: "raw 8", scores: [2, 2, 2, 1, 1], total: 32, label: "Poor well-being" },
    { name: "raw 7", scores: [2, 2, 1, 1, 1], total: 28, label: "Likely depression: assess further" },
    { name: "raw 5", scores: [1, 1, 1, 1, 1], total: 20, label: "Likely depression: assess further" },
    { name: "at no time", scores: [0, 0, 0, 0, 0], total: 0, label: "Likely depression: assess further" },
  ],
  k10: [
    { name: "none of the time", scores: run(10, 10, 1), total: 10, label: "Likely to be well" },
    { name: "one item all of the time", scores: [5, 1, 1, 1, 1, 1, 1, 1, 1, 1], total: 14, label: "Likely to be well" },
    { name: "raw 18", scores: run(10, 8, 2, 1), total: 18, label: "Likely to be well" },
    { name: "top of well", scores: run(10, 9, 2, 1), total: 19, label: "Likely to be well" },
    { name: "bottom of mild", scores: run(10, 10, 2), total: 20, label: "Mild" },
    { name: "top of mild", scores: run(10, 4, 3, 2), total: 24, label: "Mild" },
    { name: "bottom of moderate", scores: run(10, 5, 3, 2), total: 25, label: "Moderate" },
    { name: "top of moderate", scores: run(10, 9, 3, 2), total: 29, label: "Moderate" },
    { name: "bottom of severe", scores: run(10, 10, 3), total: 30, label: "Severe" },
    { name: "all of the time", scores: run(10, 10, 5), total: 50, label: "Severe" },
  ],
  epds: [
    { name: "nothing", scores: run(10, 0, 0), total: 0, label: "Below the cut-off" },
    { name: "items 1–9 a little", scores: run(10, 9, 1), total: 9, label: "Below the cut-off" },
    { name: "twelve, the top of the lower band", scores: run(10, 6, 2), total: 12, label: "Below the cut-off" },
    { name: "thirteen, over the 12/13 threshold", scores: [2, 2, 2, 2, 2, 2, 1, 0, 0, 0], total: 13, label: "Depression likely: assess further" },
    { name: "four items at most", scores: run(10, 4, 3), total: 12, label: "Below the cut-off" },
    { name: "four at most and one a little", scores: [3, 3, 3, 3, 1, 0, 0, 0, 0, 0], total: 13, label: "Depression likely: assess further" },
    { name: "everything at most", scores: run(10, 10, 3), total: 30, label: "Depression likely: assess further", flags: ["OPTION q10"] },
    // "Hardly ever" on item 10 is already critical.
    { name: "item 10 hardly ever, nothing else", scores: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1], total: 1, label: "Below the cut-off", flags: ["OPTION q10"] },
    { name: "item 10 sometimes", scores: [1, 1, 1, 1, 1, 1, 1, 1, 1, 2], total: 11, label: "Below the cut-off", flags: ["OPTION q10"] },
    { name: "item 10 never", scores: [3, 3, 3, 3, 3, 3, 3, 3, 3, 0], total: 27, label: "Depression likely: assess further" },
  ],
  audit: [
    { name: "never drinks", scores: run(10, 0, 0), total: 0, label: "Zone I: alcohol education" },
    { name: "top of zone I", scores: [2, 2, 2, 1, 0, 0, 0, 0, 0, 0], total: 7, label: "Zone I: alcohol education" },
    { name: "an injury long ago", scores: [1, 0, 0, 0, 0, 0, 0, 0, 2, 2], total: 5, label: "Zone I: alcohol education" },
    { name: "bottom of zone II", scores: [2, 2, 2, 2, 0, 0, 0, 0, 0, 0], total: 8, label: "Zone II: simple advice" },
    { name: "zone II with concern", scores: [2, 1, 1, 1, 1, 1, 1, 0, 2, 0], total: 10, label: "Zone II: simple advice" },
    { name: "top of zone II", scores: [4, 4, 4, 3, 0, 0, 0, 0, 0, 0], total: 15, label: "Zone II: simple advice" },
    {
      name: "bottom of zone III",
      scores: [4, 4, 4, 4, 0, 0, 0, 0, 0, 0],
      total: 16,
      label: "Zone III: simple advice plus brief counseling and continued monitoring",
    },
    {
      name: "top of zone III",
      scores: [4, 4, 4, 4, 3, 0, 0, 0, 0, 0],
      total: 19,
      label: "Zone III: simple advice plus brief counseling and continued monitoring",
    },
    {
      name: "bottom of zone IV",
      scores: [4, 4, 4, 4, 4, 0, 0, 0, 0, 0],
      total: 20,
      label: "Zone IV: referral to specialist for diagnostic evaluation and treatment",
    },
    {
      name: "everything at most",
      scores: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4],
      total: 40,
      label: "Zone IV: referral to specialist for diagnostic evaluation and treatment",
    },
  ],
  "audit-c": [
    { name: "never drinks", scores: [0, 0, 0], total: 0, label: "Negative" },
    { name: "monthly or less", scores: [1, 0, 0], total: 1, label: "Negative" },
    { name: "two", scores: [1, 1, 0], total: 2, label: "Negative" },
    { name: "two another way", scores: [2, 0, 0], total: 2, label: "Negative" },
    { name: "three: positive for women", scores: [1, 1, 1], total: 3, label: "Positive for women, negative for men" },
    { name: "three another way", scores: [3, 0, 0], total: 3, label: "Positive for women, negative for men" },
    { name: "four: positive", scores: [2, 1, 1], total: 4, label: "Positive" },
    { name: "four another way", scores: [2, 2, 0], total: 4, label: "Positive" },
    { name: "four from frequency alone", scores: [4, 0, 0], total: 4, label: "Positive" },
    { name: "everything at most", scores: [4, 4, 4], total: 12, label: "Positive" },
  ],
  "pcl-5": [
    { name: "nothing", scores: run(20, 0, 0), total: 0, label: "Below the cut-off", subscales: { B: [0, null], C: [0, null], D: [0, null], E: [0, null] } },
    {
      name: "a little bit",
      scores: run(20, 20, 1),
      total: 20,
      label: "Below the cut-off",
      subscales: { B: [5, null], C: [2, null], D: [7, null], E: [6, null] },
    },
    {
      name: "intrusion only",
      scores: run(20, 5, 4),
      total: 20,
      label: "Below the cut-off",
      subscales: { B: [20, null], C: [0, null], D: [0, null], E: [0, null] },
    },
    {
      name: "avoidance only",
      scores: byItem(20, [
        [
          [6, 7],
          [4, 4],
        ],
      ]),
      total: 8,
      label: "Below the cut-off",
      subscales: { C: [8, null] },
    },
    {
      name: "cognitions and mood only",
      scores: byItem(20, [
        [
          [8, 9, 10, 11, 12, 13, 14],
          [4, 4, 4, 4, 4, 4, 4],
        ],
      ]),
      total: 28,
      label: "Below the cut-off",
      subscales: { D: [28, null] },
    },
    {
      name: "arousal only",
      scores: byItem(20, [
        [
          [15, 16, 17, 18, 19, 20],
          [3, 3, 3, 3, 3, 3],
        ],
      ]),
      total: 18,
      label: "Below the cut-off",
      subscales: { E: [18, null] },
    },
    // Twelve items moderately, eight a little: 24 + 8 = 32; B 10, C 4, D 5 × 2 + 2 × 1 = 12, E 6.
    {
      name: "just under the cut-off",
      scores: run(20, 12, 2, 1),
      total: 32,
      label: "Below the cut-off",
      subscales: { B: [10, null], C: [4, null], D: [12, null], E: [6, null] },
    },
    // Thirteen moderately, seven a little: 26 + 7 = 33; D 6 × 2 + 1 = 13.
    {
      name: "at the cut-off",
      scores: run(20, 13, 2, 1),
      total: 33,
      label: "Probable PTSD: assess further",
      subscales: { B: [10, null], C: [4, null], D: [13, null], E: [6, null] },
    },
    {
      name: "moderately",
      scores: run(20, 20, 2),
      total: 40,
      label: "Probable PTSD: assess further",
      subscales: { B: [10, null], C: [4, null], D: [14, null], E: [12, null] },
    },
    {
      name: "extremely",
      scores: run(20, 20, 4),
      total: 80,
      label: "Probable PTSD: assess further",
      subscales: { B: [20, null], C: [8, null], D: [28, null], E: [24, null] },
    },
  ],
  "dass-21": [
    { name: "nothing", scores: run(21, 0, 0), total: 0, label: null, subscales: { depression: [0, "Normal"], anxiety: [0, "Normal"], stress: [0, "Normal"] } },
    {
      name: "everything most of the time",
      scores: run(21, 21, 3),
      total: 63,
      label: null,
      subscales: { depression: [42, "Extremely severe"], anxiety: [42, "Extremely severe"], stress: [42, "Extremely severe"] },
    },
    // Depression items 1 each: 7 × 2 = 14.
    {
      name: "depression only",
      scores: byItem(21, [[DEPRESSION, [1, 1, 1, 1, 1, 1, 1]]]),
      total: 7,
      label: null,
      subscales: { depression: [14, "Moderate"], anxiety: [0, "Normal"] },
    },
    // Depression 5 × 2 = 10, anxiety 4 × 2 = 8, stress 7 × 2 = 14: the bottom of mild, mild, and the top of normal.
    {
      name: "at the lower cut-offs",
      scores: byItem(21, [
        [DEPRESSION, [1, 1, 1, 1, 1, 0, 0]],
        [ANXIETY, [1, 1, 1, 1, 0, 0, 0]],
        [STRESS, [1, 1, 1, 1, 1, 1, 1]],
      ]),
      total: 16,
      label: null,
      subscales: { depression: [10, "Mild"], anxiety: [8, "Mild"], stress: [14, "Normal"] },
    },
    // Depression 8 × 2 = 16, "Moderate".
    {
      name: "raw depression 8",
      scores: byItem(21, [[DEPRESSION, [2, 2, 1, 1, 1, 1, 0]]]),
      total: 8,
      label: null,
      subscales: { depression: [16, "Moderate"], anxiety: [0, "Normal"], stress: [0, "Normal"] },
    },
    {
      name: "moderate on every scale",
      scores: byItem(21, [
        [DEPRESSION, [2, 2, 2, 1, 1, 1, 1]],
        [ANXIETY, [1, 1, 1, 1, 1, 1, 1]],
        [STRESS, [2, 2, 2, 2, 2, 1, 1]],
      ]),
      total: 29,
      label: null,
      subscales: { depression: [20, "Moderate"], anxiety: [14, "Moderate"], stress: [24, "Moderate"] },
    },
    {
      name: "severe on every scale",
      scores: byItem(21, [
        [DEPRESSION, [2, 2, 2, 2, 2, 2, 1]],
        [ANXIETY, [2, 2, 1, 1, 1, 1, 1]],
        [STRESS, [3, 3, 2, 2, 2, 2, 2]],
      ]),
      total: 38,
      label: null,
      subscales: { depression: [26, "Severe"], anxiety: [18, "Severe"], stress: [32, "Severe"] },
    },
    {
      name: "extremely severe at its bottom on every scale",
      scores: byItem(21, [
        [DEPRESSION, [2, 2, 2, 2, 2, 2, 2]],
        [ANXIETY, [2, 2, 2, 1, 1, 1, 1]],
        [STRESS, [3, 3, 3, 2, 2, 2, 2]],
      ]),
      total: 41,
      label: null,
      subscales: { depression: [28, "Extremely severe"], anxiety: [20, "Extremely severe"], stress: [34, "Extremely severe"] },
    },
    // Depression with item 21 blank: 6 × 7 / 6 = 7, × 2 = 14; the total 6 × 21 / 20 = 6.3.
    {
      name: "one depression item blank, prorated",
      scores: byItem(21, [[DEPRESSION, [1, 1, 1, 1, 1, 1, null]]]),
      total: 6.3,
      label: null,
      prorated: true,
      subscales: { depression: [14, "Moderate"], anxiety: [0, "Normal"], stress: [0, "Normal"] },
    },
    // 4 × 7 / 6 = 4.666… × 2 = 9.33: between 9 and 10, so still "Normal"; the total 4 × 21 / 20 = 4.2.
    {
      name: "one depression item blank, prorated between two bands",
      scores: byItem(21, [[DEPRESSION, [1, 1, 1, 1, 0, 0, null]]]),
      total: 4.2,
      label: null,
      prorated: true,
      subscales: { depression: [9.33, "Normal"] },
    },
    // Two of depression's seven blank: at least 6 of 7 are needed; the total has two blank too.
    {
      name: "two depression items blank",
      scores: byItem(21, [
        [DEPRESSION, [1, 1, 1, 1, 1, null, null]],
        [ANXIETY, [1, 1, 1, 1, 1, 1, 1]],
      ]),
      total: null,
      label: null,
      subscales: { depression: [null, null], anxiety: [14, "Moderate"], stress: [0, "Normal"] },
    },
    // One blank in each of two scales: each scale is prorated, the total (two blank) is not scorable.
    {
      name: "one blank in depression and one in anxiety",
      scores: byItem(21, [
        [DEPRESSION, [3, 3, 3, 3, 3, 3, null]],
        [ANXIETY, [null, 0, 0, 0, 0, 0, 0]],
      ]),
      total: null,
      label: null,
      subscales: { depression: [42, "Extremely severe"], anxiety: [0, "Normal"] },
    },
  ],
  rses: [
    // Printed scores: Strongly agree 3 … Strongly disagree 0; items 2, 5, 6, 8 and 9 mirrored.
    { name: "strongly agrees with everything", scores: run(10, 10, 3), total: 15, label: "Within the normal range" },
    { name: "the most positive", scores: [3, 0, 3, 3, 0, 0, 3, 0, 0, 3], total: 30, label: "Above the normal range" },
    { name: "the most negative", scores: [0, 3, 0, 0, 3, 3, 0, 3, 3, 0], total: 0, label: "Low self-esteem" },
    { name: "agrees with everything", scores: run(10, 10, 2), total: 15, label: "Within the normal range" },
    { name: "disagrees with everything", scores: run(10, 10, 1), total: 15, label: "Within the normal range" },
    { name: "agrees with the positive, disagrees with the negative", scores: [2, 1, 2, 2, 1, 1, 2, 1, 1, 2], total: 20, label: "Within the normal range" },
    { name: "top of the normal range", scores: [3, 1, 3, 3, 1, 1, 3, 1, 1, 3], total: 25, label: "Within the normal range" },
    { name: "bottom of above", scores: [3, 0, 3, 3, 1, 1, 3, 1, 1, 3], total: 26, label: "Above the normal range" },
    // Positive items 2 × 5 = 10, items 2, 5, 6 and 8 agreed (2 → 1) = 4, item 9 strongly agreed (3 → 0).
    { name: "top of low", scores: [2, 2, 2, 2, 2, 2, 2, 2, 3, 2], total: 14, label: "Low self-esteem" },
    { name: "low", scores: [1, 2, 1, 1, 2, 2, 1, 2, 2, 1], total: 10, label: "Low self-esteem" },
  ],
};
