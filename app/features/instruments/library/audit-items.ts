import type { InstrumentItem, InstrumentOption } from "../instrument-definition.ts";

/**
 * The AUDIT's ten items as the WHO manual prints them (Babor et al. 2001, WHO/MSD/MSB/01.6a, read
 * from https://docslib.org/doc/12676805/audit-the-alcohol-use-disorders-identification-test,
 * http://www.aurorahealthcare.org/services/behhealth/quiz-screening-tests/alcohol-screening.asp and
 * http://naturalbodyhealing.com/alcohol-audit-test.html): items 1–8 score 0–4, items 9 and 10 score
 * 0, 2 or 4. The AUDIT-C is its first three.
 *
 * Languages: the WHO's Spanish edition of the manual (WHO/MSD/MSB/01.6a, Conselleria de Benestar
 * Social) was found, but only its opening pages could be read, not the questionnaire; the only
 * Portuguese form read was Portugal's, not Brazil's. So the items are English only.
 */
const scored = (texts: string[], scores = [0, 1, 2, 3, 4]): InstrumentOption[] => texts.map((en, index) => ({ text: { en }, score: scores[index]! }));

const HOW_OFTEN = scored(["Never", "Less than monthly", "Monthly", "Weekly", "Daily or almost daily"]);
const EVER = scored(["No", "Yes, but not in the last year", "Yes, during the last year"], [0, 2, 4]);

export const AUDIT_ITEMS: InstrumentItem[] = [
  {
    key: "q1",
    text: { en: "How often do you have a drink containing alcohol?" },
    options: scored(["Never", "Monthly or less", "2 to 4 times a month", "2 to 3 times a week", "4 or more times a week"]),
  },
  {
    key: "q2",
    text: { en: "How many drinks containing alcohol do you have on a typical day when you are drinking?" },
    options: scored(["1 or 2", "3 or 4", "5 or 6", "7, 8, or 9", "10 or more"]),
  },
  { key: "q3", text: { en: "How often do you have six or more drinks on one occasion?" }, options: HOW_OFTEN },
  {
    key: "q4",
    text: { en: "How often during the last year have you found that you were not able to stop drinking once you had started?" },
    options: HOW_OFTEN,
  },
  {
    key: "q5",
    text: { en: "How often during the last year have you failed to do what was normally expected from you because of drinking?" },
    options: HOW_OFTEN,
  },
  {
    key: "q6",
    text: { en: "How often during the last year have you needed a first drink in the morning to get yourself going after a heavy drinking session?" },
    options: HOW_OFTEN,
  },
  { key: "q7", text: { en: "How often during the last year have you had a feeling of guilt or remorse after drinking?" }, options: HOW_OFTEN },
  {
    key: "q8",
    text: { en: "How often during the last year have you been unable to remember what happened the night before because you had been drinking?" },
    options: HOW_OFTEN,
  },
  { key: "q9", text: { en: "Have you or someone else been injured as a result of your drinking?" }, options: EVER },
  {
    key: "q10",
    text: { en: "Has a relative or friend or a doctor or another health worker been concerned about your drinking or suggested you cut down?" },
    options: EVER,
  },
];

export const AUDIT_LICENCE =
  "Free: developed and published by the World Health Organization for use without charge; the manual may be reproduced freely for non-commercial purposes.";

/** The self-report form's introduction (read from https://paperzz.com/doc/9020877/patient--because-alcohol-use-can-affect-your-health-and-can). */
export const AUDIT_INSTRUCTIONS =
  "Because alcohol use can affect your health and can interfere with certain medications and treatments, it is important that we ask some questions about your use of alcohol. Your answers will remain confidential, so please be honest.";
