import type { InstrumentDefinition, InstrumentOption } from "../instrument-definition.ts";
import { band, COLOURS } from "./shared.ts";

/**
 * The Rosenberg Self-Esteem Scale.
 *
 * - Items, options and scores: the ten items in the order and wording the scale is usually
 *   printed in, Strongly agree 3, Agree 2, Disagree 1, Strongly disagree 0; items 2, 5, 6, 8 and
 *   9 are reverse scored (read from http://www.growing-self-esteem.com/rosenberg-self-esteem.html
 *   and the 1965 item list at https://www.nedayemehr.ir/ … /730-rosenberg-self-esteem-scale-rosenberg-1965,
 *   which marks the same five items).
 * - Bands: "scores between 15 and 25 are within normal range; scores below 15 suggest low
 *   self-esteem" (growing-self-esteem, above); 26–30 is above that range. Higher is better. The
 *   University of Maryland's FAQ says otherwise: "There are no discrete cut-off points to delineate
 *   high and low self-esteem" (https://socy.umd.edu/quick-links/rosenberg-scale-faq-0); the bands
 *   are kept as read, and a form that wants no bands is an organization's own.
 * - Licence: "Dr. Florence Rosenberg, Manny's wife, has given permission to use the Self-Esteem
 *   Scale for educational and professional research. There is no charge associated with the use of
 *   this scale in your professional research", crediting Rosenberg (same FAQ, which gives the 1989
 *   revised edition as "the most appropriate citation"); a copy of the printed scale adds "The scale
 *   may be used without explicit permission. The author's family, however, would like to be kept
 *   informed of its use: The Morris Rosenberg Foundation, c/o Department of Sociology, University of
 *   Maryland" (https://www.scribd.com/document/47548675/Rosenberg-Self-Esteem-Scale-Rosenberg-1965).
 *   Neither speaks of use outside research in so many words.
 * - Languages: "the University of Maryland is not a repository for such scales. Please refer to the
 *   scholarly literature" (same FAQ); no published Spanish or Brazilian Portuguese version could be
 *   read, so only English.
 * - Missing items, reliable change and remission: none published that could be found; all unset.
 */
const AGREEMENT: InstrumentOption[] = [
  { text: { en: "Strongly agree" }, score: 3 },
  { text: { en: "Agree" }, score: 2 },
  { text: { en: "Disagree" }, score: 1 },
  { text: { en: "Strongly disagree" }, score: 0 },
];

const ITEMS: [string, boolean][] = [
  ["On the whole, I am satisfied with myself.", false],
  ["At times I think I am no good at all.", true],
  ["I feel that I have a number of good qualities.", false],
  ["I am able to do things as well as most other people.", false],
  ["I feel I do not have much to be proud of.", true],
  ["I certainly feel useless at times.", true],
  ["I feel that I’m a person of worth, at least on an equal plane with others.", false],
  ["I wish I could have more respect for myself.", true],
  ["All in all, I am inclined to feel that I am a failure.", true],
  ["I take a positive attitude toward myself.", false],
];

export const ROSENBERG: InstrumentDefinition = {
  key: "rses",
  name: "Rosenberg Self-Esteem Scale",
  version: "1",
  description: "Ten statements of global self-worth, 0–30; higher is better.",
  languages: ["en"],
  licence:
    "Free: the Rosenberg family permits its use for educational and professional research with no charge, crediting Rosenberg (University of Maryland, https://socy.umd.edu/quick-links/rosenberg-scale-faq-0); the printed scale says it may be used without explicit permission, the Morris Rosenberg Foundation asking to be kept informed of its use.",
  citation:
    "Rosenberg M. Society and the Adolescent Self-Image. Princeton, NJ: Princeton University Press; 1965. Revised edition: Middletown, CT: Wesleyan University Press; 1989.",
  scoringSource: "http://www.growing-self-esteem.com/rosenberg-self-esteem.html",
  // The printed instructions ("Below is a list of statements dealing with your general feelings about
  // yourself. If you strongly agree, circle SA. …", copy above) are for paper: these words are ours.
  instructions: { en: "Please indicate how strongly you agree or disagree with each statement." },
  items: ITEMS.map(([en, reverse], index) => ({
    key: `q${index + 1}`,
    text: { en },
    options: AGREEMENT,
    ...(reverse ? { reverseScored: true as const } : {}),
  })),
  subscales: [],
  scoreRanges: [
    band(0, 14, "Low self-esteem", COLOURS.severe),
    band(15, 25, "Within the normal range", COLOURS.none),
    band(26, 30, "Above the normal range", COLOURS.mild),
  ],
  scoring: { method: "SUM", multiplier: 1, maxMissing: null, display: "RAW" },
  reliableChange: null,
  remissionBelow: null,
  lowerIsBetter: false,
  criticalMessage: null,
};
