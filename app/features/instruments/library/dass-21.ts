import { type InstrumentDefinition, itemsWith } from "../instrument-definition.ts";
import { band, COLOURS } from "./shared.ts";

/**
 * DASS-21, the short Depression Anxiety Stress Scales.
 *
 * - Items, options and scores: 0–3, read from https://www.thecalculator.co/health/DASS-21-Depression-Anxiety-Stress-Scale-Test-938.html
 *   and https://people.my/quiz-app/en/quiz/quiz-3 (the parenthetical examples of items 4 and 19).
 * - Subscales: depression 3, 5, 10, 13, 16, 17, 21; anxiety 2, 4, 7, 9, 15, 19, 20; stress 1, 6,
 *   8, 11, 12, 14, 18; each summed and multiplied by 2 to compare with the DASS-42's norms, with
 *   the severity cut-offs of the manual (Lovibond & Lovibond 1995; read from
 *   http://www.revivehealthandhappiness.com.au/for-health-professionals/tools-and-tests/dass-42/ and
 *   https://ahsri.atlassian.net/wiki/pages/viewpage.action?pageId=20579732).
 * - Missing items: "the test developers suggest that at least 6 of 7 items should be complete for
 *   each sub-scale" (ahsri, above), so `maxMissing: 1` and the subscale is prorated to 7 items
 *   before the multiplier. The same rule then applies to the total, which the manual does not band.
 * - The total is the plain sum of the 21 items (0–63), without bands: the manual interprets the
 *   three scales, not a total.
 * - Licence: the DASS FAQ (https://www2.psy.unsw.edu.au/dass/DASSFAQ.htm), question 3, "How do I
 *   get permission to use the DASS?": "The DASS questionnaire is public domain, and so permission is
 *   not needed to use it", and it may be "distributed, published or made available electronically"
 *   provided that the scales are not modified, are not sold for profit, "the intended audience is
 *   researchers or health professionals rather than end users", and the DASS website is referenced.
 *   That answer was read from a copy quoting it (http://executivecounseling.in/depression-anxiety-stress-scale/);
 *   the UNSW page itself could be read only as its list of questions, which now also asks "21. Can I
 *   administer the DASS on a website or app?" and "22. Can I charge for administering the DASS?",
 *   whose answers could not be read. Check those two before publishing: respondents here are end
 *   users.
 * - Languages: the FAQ's question 25 is about translations, but neither its answer nor a Spanish or
 *   Brazilian Portuguese form could be read, so only English is given.
 * - Reliable change and remission: none published that could be found; unset.
 */
const DEPRESSION = [3, 5, 10, 13, 16, 17, 21];
const ANXIETY = [2, 4, 7, 9, 15, 19, 20];
const STRESS = [1, 6, 8, 11, 12, 14, 18];
const keys = (numbers: number[]) => numbers.map((n) => `q${n}`);

export const DASS_21: InstrumentDefinition = {
  key: "dass-21",
  name: "DASS-21",
  version: "1",
  description: "Depression Anxiety Stress Scales, short form: 21 items on the past week, three scales of 0–42 (sum × 2).",
  languages: ["en"],
  licence:
    "Public domain: permission is not needed to use it; it may be made available electronically if the scales are not modified, not sold for profit, meant for researchers or health professionals rather than end users, and the DASS website is referenced (DASS FAQ, https://www2.psy.unsw.edu.au/dass/DASSFAQ.htm).",
  citation: "Lovibond SH, Lovibond PF. Manual for the Depression Anxiety Stress Scales. 2nd ed. Sydney: Psychology Foundation; 1995.",
  scoringSource: "https://www2.psy.unsw.edu.au/dass/",
  instructions: {
    en: "Please read each statement and choose a number 0, 1, 2 or 3 that indicates how much the statement applied to you over the past week. There are no right or wrong answers. Do not spend too much time on any statement.",
  },
  items: itemsWith(
    [
      { text: { en: "Did not apply to me at all" }, score: 0 },
      { text: { en: "Applied to me to some degree, or some of the time" }, score: 1 },
      { text: { en: "Applied to me to a considerable degree, or a good part of time" }, score: 2 },
      { text: { en: "Applied to me very much, or most of the time" }, score: 3 },
    ],
    [
      "I found it hard to wind down",
      "I was aware of dryness of my mouth",
      "I couldn’t seem to experience any positive feeling at all",
      "I experienced breathing difficulty (e.g., excessively rapid breathing, breathlessness in the absence of physical exertion)",
      "I found it difficult to work up the initiative to do things",
      "I tended to over-react to situations",
      "I experienced trembling (e.g., in the hands)",
      "I felt that I was using a lot of nervous energy",
      "I was worried about situations in which I might panic and make a fool of myself",
      "I felt that I had nothing to look forward to",
      "I found myself getting agitated",
      "I found it difficult to relax",
      "I felt down-hearted and blue",
      "I was intolerant of anything that kept me from getting on with what I was doing",
      "I felt I was close to panic",
      "I was unable to become enthusiastic about anything",
      "I felt I wasn’t worth much as a person",
      "I felt that I was rather touchy",
      "I was aware of the action of my heart in the absence of physical exertion",
      "I felt scared without any good reason",
      "I felt that life was meaningless",
    ].map((en) => ({ en })),
  ),
  subscales: [
    {
      key: "depression",
      name: { en: "Depression" },
      items: keys(DEPRESSION),
      method: "SUM",
      multiplier: 2,
      scoreRanges: [
        band(0, 9, "Normal", COLOURS.none),
        band(10, 13, "Mild", COLOURS.mild),
        band(14, 20, "Moderate", COLOURS.moderate),
        band(21, 27, "Severe", COLOURS.high),
        band(28, 42, "Extremely severe", COLOURS.severe),
      ],
    },
    {
      key: "anxiety",
      name: { en: "Anxiety" },
      items: keys(ANXIETY),
      method: "SUM",
      multiplier: 2,
      scoreRanges: [
        band(0, 7, "Normal", COLOURS.none),
        band(8, 9, "Mild", COLOURS.mild),
        band(10, 14, "Moderate", COLOURS.moderate),
        band(15, 19, "Severe", COLOURS.high),
        band(20, 42, "Extremely severe", COLOURS.severe),
      ],
    },
    {
      key: "stress",
      name: { en: "Stress" },
      items: keys(STRESS),
      method: "SUM",
      multiplier: 2,
      scoreRanges: [
        band(0, 14, "Normal", COLOURS.none),
        band(15, 18, "Mild", COLOURS.mild),
        band(19, 25, "Moderate", COLOURS.moderate),
        band(26, 33, "Severe", COLOURS.high),
        band(34, 42, "Extremely severe", COLOURS.severe),
      ],
    },
  ],
  scoreRanges: [],
  scoring: { method: "SUM", multiplier: 1, maxMissing: 1, display: "RAW" },
  reliableChange: null,
  remissionBelow: null,
  lowerIsBetter: true,
  criticalMessage: null,
};
