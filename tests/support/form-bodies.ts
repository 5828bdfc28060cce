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
 * A form graded by its answer key (docs/api-contract.md §22), whose options' own scores the key
 * overrides:
 *   Q1 single, 2 points: Paris (correct)               max 2
 *   Q2 multiple, ALL_OR_NOTHING, 2 points: 2, 3 (correct), 4          max 2
 *   Q3 multiple, PARTIAL, 3 points: Atlantic, Pacific, Indian (correct), Sahara, Alps   max 3
 *   Q4 text                                            not scored
 * maximum 7. Feedback on Q1, Q2, and on some options.
 */
export function keyedFormBody(title: string, review: "NEVER" | "AFTER_SUBMIT" | "AFTER_CLOSE" = "NEVER") {
  return {
    title,
    isPublished: true,
    review,
    questions: [
      {
        text: "Which city is the capital of France?",
        type: "SINGLE_CHOICE",
        required: true,
        points: 2,
        feedback: "Paris has been the capital since the 10th century.",
        options: [
          { text: "Paris", score: 0, correct: true, feedback: "Yes: Paris." },
          { text: "Lyon", score: 5, feedback: "Lyon is a large city, not the capital." },
        ],
      },
      {
        text: "Which numbers are prime?",
        type: "MULTIPLE_CHOICE",
        points: 2,
        scoringRule: "ALL_OR_NOTHING",
        feedback: "A prime has exactly two divisors.",
        options: [
          { text: "2", score: 0, correct: true },
          { text: "3", score: 0, correct: true },
          { text: "4", score: 1, feedback: "4 is 2 × 2." },
        ],
      },
      {
        text: "Which are oceans?",
        type: "MULTIPLE_CHOICE",
        points: 3,
        scoringRule: "PARTIAL",
        options: [
          { text: "Atlantic", score: 0, correct: true },
          { text: "Pacific", score: 0, correct: true },
          { text: "Indian", score: 0, correct: true },
          { text: "Sahara", score: 0, feedback: "The Sahara is a desert." },
          { text: "Alps", score: 0 },
        ],
      },
      { text: "Anything to add?", type: "TEXT" },
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

/**
 * A quiz graded by its answer key (docs/api-contract.md §22), no question required:
 *   Q1 single    Paris* Lyon Nice        2 points
 *   Q2 multiple  2* 3* 4                 3 points, all or nothing
 *   Q3 single    Jupiter* Mars           1 point
 * maximum 6; bands [0, 2.5] Needs work, [3, 6] Secure.
 */
export function keyedQuizBody(title: string) {
  const option = (text: string, correct = false) => ({ text, score: 0, correct });
  return {
    title,
    isPublished: true,
    scoreRanges: [
      { min: 0, max: 2.5, label: "Needs work", color: "#B42318" },
      { min: 3, max: 6, label: "Secure", color: "#1A7F37" },
    ],
    questions: [
      { text: "The capital of France", type: "SINGLE_CHOICE", points: 2, options: [option("Paris", true), option("Lyon"), option("Nice")] },
      {
        text: "The prime numbers",
        type: "MULTIPLE_CHOICE",
        points: 3,
        scoringRule: "ALL_OR_NOTHING",
        options: [option("2", true), option("3", true), option("4")],
      },
      { text: "The largest planet", type: "SINGLE_CHOICE", points: 1, options: [option("Jupiter", true), option("Mars")] },
    ],
  };
}
