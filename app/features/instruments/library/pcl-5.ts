import { type InstrumentDefinition, itemsWith } from "../instrument-definition.ts";
import { band, COLOURS } from "./shared.ts";

/**
 * PCL-5, the PTSD Checklist for DSM-5 (without the Criterion A section or the LEC-5).
 *
 * - Items, options and scores: Not at all 0 … Extremely 4, read from
 *   https://mdcodelookup.com/ptsd-checklist-pcl5 (items 1–6) and
 *   https://epavt.org/guia_eng/files/assets/basic-html/page-17.html (items 7–20).
 * - Subscales: the DSM-5 clusters, summed: B items 1–5, C items 6–7, D items 8–14, E items 15–20
 *   (http://www.medafile.com/WRIISC/PCL5.htm, after the National Center for PTSD's scoring).
 * - Bands: "a PCL-5 cutoff score between 31-33 is indicative of probable PTSD"; 33 is used here,
 *   the National Center for PTSD's working cut-off (Bovin et al. 2016).
 * - Missing items and remission: none published that could be found; unset. Reliable change: the
 *   National Center for PTSD gives a raw change of 5 points as reliable, and Marx et al. (2022),
 *   Psychol Assess 34(2):197-203, changes of 15 and 18 points in two veteran samples; none gives
 *   the standard deviation and reliability the form's index needs, so `reliableChange` is null.
 * - Languages: no published Spanish or Brazilian Portuguese form could be read; English only.
 */
export const PCL_5: InstrumentDefinition = {
  key: "pcl-5",
  name: "PCL-5",
  version: "1",
  description: "PTSD Checklist for DSM-5: twenty symptoms in the past month, 0–80, with the four DSM-5 clusters.",
  languages: ["en"],
  licence: "Public domain: developed by staff of the U.S. Department of Veterans Affairs National Center for PTSD.",
  citation:
    "Weathers FW, Litz BT, Keane TM, Palmieri PA, Marx BP, Schnurr PP. The PTSD Checklist for DSM-5 (PCL-5). National Center for PTSD; 2013. Blevins CA, Weathers FW, Davis MT, Witte TK, Domino JL. J Trauma Stress. 2015;28(6):489-498.",
  scoringSource: "https://www.ptsd.va.gov/professional/assessment/adult-sr/ptsd-checklist.asp",
  instructions: {
    en: "Below is a list of problems that people sometimes have in response to a very stressful experience. Please read each problem carefully and then select one of the numbers to indicate how much you have been bothered by that problem in the past month.",
  },
  items: itemsWith(
    [
      { text: { en: "Not at all" }, score: 0 },
      { text: { en: "A little bit" }, score: 1 },
      { text: { en: "Moderately" }, score: 2 },
      { text: { en: "Quite a bit" }, score: 3 },
      { text: { en: "Extremely" }, score: 4 },
    ],
    [
      "Repeated, disturbing, and unwanted memories of the stressful experience?",
      "Repeated, disturbing dreams of the stressful experience?",
      "Suddenly feeling or acting as if the stressful experience were actually happening again (as if you were actually back there reliving it)?",
      "Feeling very upset when something reminded you of the stressful experience?",
      "Having strong physical reactions when something reminded you of the stressful experience (for example, heart pounding, trouble breathing, sweating)?",
      "Avoiding memories, thoughts, or feelings related to the stressful experience?",
      "Avoiding external reminders of the stressful experience (for example, people, places, conversations, activities, objects, or situations)?",
      "Trouble remembering important parts of the stressful experience?",
      "Having strong negative beliefs about yourself, other people, or the world (for example, having thoughts such as: I am bad, there is something seriously wrong with me, no one can be trusted, the world is completely dangerous)?",
      "Blaming yourself or someone else for the stressful experience or what happened after it?",
      "Having strong negative feelings such as fear, horror, anger, guilt, or shame?",
      "Loss of interest in activities that you used to enjoy?",
      "Feeling distant or cut off from other people?",
      "Trouble experiencing positive feelings (for example, being unable to feel happiness or have loving feelings for people close to you)?",
      "Irritable behavior, angry outbursts, or acting aggressively?",
      "Taking too many risks or doing things that could cause you harm?",
      "Being “superalert” or watchful or on guard?",
      "Feeling jumpy or easily startled?",
      "Having difficulty concentrating?",
      "Trouble falling or staying asleep?",
    ].map((en) => ({ en })),
  ),
  subscales: [
    { key: "B", name: { en: "Intrusion (cluster B)" }, items: ["q1", "q2", "q3", "q4", "q5"], method: "SUM", multiplier: 1, scoreRanges: [] },
    { key: "C", name: { en: "Avoidance (cluster C)" }, items: ["q6", "q7"], method: "SUM", multiplier: 1, scoreRanges: [] },
    {
      key: "D",
      name: { en: "Negative alterations in cognitions and mood (cluster D)" },
      items: ["q8", "q9", "q10", "q11", "q12", "q13", "q14"],
      method: "SUM",
      multiplier: 1,
      scoreRanges: [],
    },
    {
      key: "E",
      name: { en: "Alterations in arousal and reactivity (cluster E)" },
      items: ["q15", "q16", "q17", "q18", "q19", "q20"],
      method: "SUM",
      multiplier: 1,
      scoreRanges: [],
    },
  ],
  scoreRanges: [band(0, 32, "Below the cut-off", COLOURS.none), band(33, 80, "Probable PTSD: assess further", COLOURS.severe)],
  scoring: { method: "SUM", multiplier: 1, maxMissing: null, display: "RAW" },
  reliableChange: null,
  remissionBelow: null,
  lowerIsBetter: true,
  criticalMessage: null,
};
