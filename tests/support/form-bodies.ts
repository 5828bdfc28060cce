/**
 * Form bodies shared by the tests over HTTP and the tests of the services, in a module of their
 * own so that the services project does not load the HTTP client with them.
 */

/**
 * A form mixing every question type, negative option scores and three bands:
 *   Q1 single  {3, -2}            max 3
 *   Q2 multiple {2, -1, 1.5}      max 3.5 (positive options only)
 *   Q3 scale   {0, 1, 2, 3}       max 3
 *   Q4 text                       not scored
 * maximum 9.5; bands [-5, 0.5] Low, [0.75, 5] Medium, [5.5, 9.5] High.
 */
export function mixedFormBody(title: string) {
  return {
    title,
    category: "Screening",
    isPublished: true,
    scoreRanges: [
      { min: -5, max: 0.5, label: "Low", color: "#B42318" },
      { min: 0.75, max: 5, label: "Medium", color: "#B54708" },
      { min: 5.5, max: 9.5, label: "High", color: "#1A7F37" },
    ],
    questions: [
      {
        text: "Pick one",
        type: "SINGLE_CHOICE",
        required: true,
        options: [
          { text: "A", score: 3 },
          { text: "B", score: -2 },
        ],
      },
      {
        text: "Pick any",
        type: "MULTIPLE_CHOICE",
        options: [
          { text: "two", score: 2 },
          { text: "minus one", score: -1 },
          { text: "one and a half", score: 1.5 },
        ],
      },
      {
        text: "Rate it",
        type: "SCALE",
        required: true,
        options: [
          { text: "0", score: 0 },
          { text: "1", score: 1 },
          { text: "2", score: 2 },
          { text: "3", score: 3 },
        ],
      },
      { text: "Say something", type: "TEXT" },
    ],
  };
}

/**
 * A published test of one single choice, "The capital of France?" (Paris, Lyon: scores 0), and a
 * text question. `points`: graded by its key, Paris the correct option (docs/api-contract.md §22).
 */
export function capitalsFormBody(title: string, points: number | null = null) {
  const key = points === null ? {} : { points };
  return {
    title,
    isPublished: true,
    questions: [
      {
        text: "The capital of France?",
        type: "SINGLE_CHOICE",
        required: true,
        ...key,
        options: ["Paris", "Lyon"].map((text, i) => ({ text, score: 0, ...(points !== null && i === 0 ? { correct: true } : {}) })),
      },
      { text: "Anything to add?", type: "TEXT" },
    ],
  };
}
