import type { InstrumentDefinition, InstrumentOption } from "../instrument-definition.ts";
import { band, COLOURS, SAFETY_MESSAGE } from "./shared.ts";

/**
 * PHQ-9, the Patient Health Questionnaire's depression module.
 *
 * - Items, options and scores: the PHQ-9 form as Pfizer publishes it (English; "Spanish for the
 *   USA", read from a copy of that form, https://es.studenta.com/content/129686767/patient-health-questionnaire-9-spanish;
 *   "Portuguese for Brazil", read from a copy of that form, https://pt.scribd.com/document/627243451/Questionario-sobre-a-saude-do-paciente).
 *   Item 10 (how difficult the problems made things) is not scored and is left out.
 * - Bands: 0–4, 5–9, 10–14, 15–19, 20–27 (Kroenke, Spitzer & Williams 2001).
 * - Missing items: at most two, each replaced by the mean of the answered items (Arrieta et al.
 *   2017, J Clin Psychol 73(9), doi:10.1002/jclp.22390, as the qscorer package documents it:
 *   https://rdrr.io/github/nrkoehler/qscorer/man/scoring_phq9.html). Replacing by the mean is the
 *   same as prorating the sum, so `maxMissing: 2`.
 * - Remission: a total below 5, as the HEDIS depression measures define it
 *   (https://doi.org/10.1176/appi.ps.201900295).
 * - Reliable change (Jacobson & Truax 1991, J Consult Clin Psychol 59(1):12-19): the standard
 *   deviation 4.8 of the PHQ-9 at baseline in both arms of the COBRA trial (440 adults with major
 *   depression in UK primary care and psychological therapy services: Richards et al. 2016,
 *   Lancet 388(10047):871-880, doi:10.1016/S0140-6736(16)31140-0, Table 2,
 *   https://pmc.ncbi.nlm.nih.gov/articles/PMC5007415/) and the test–retest reliability 0.84 (the
 *   self-report against a mental health professional's telephone interview within 48 hours;
 *   Kroenke, Spitzer & Williams 2001). The index then needs a change of more than
 *   1.96 × 4.8 × √2 × √(1 − 0.84) = 5.3 points, so 6 points on a whole-number total: the "reduction
 *   of 6 or more points" that NHS Talking Therapies (formerly IAPT) counts as reliable improvement
 *   (NHS Digital 2016, as cited in https://pmc.ncbi.nlm.nih.gov/articles/PMC8411661/, Table 1).
 *   The internal consistency, α = 0.89 in the same paper, would give 4.4 points, below that criterion.
 * - Critical: item 9 (thoughts of being better off dead or of self-harm) answered above "Not at all".
 */
const options = (texts: [string, string, string][]): InstrumentOption[] => texts.map(([en, es, pt], score) => ({ text: { en, es, "pt-BR": pt }, score }));

const FREQUENCY = options([
  ["Not at all", "Ningún día", "Nenhuma vez"],
  ["Several days", "Varios días", "Vários dias"],
  ["More than half the days", "Más de la mitad de los días", "Mais da metade dos dias"],
  ["Nearly every day", "Casi todos los días", "Quase todos os dias"],
]);

const ITEMS: [string, string, string][] = [
  ["Little interest or pleasure in doing things", "Poco interés o placer en hacer cosas", "Pouco interesse ou pouco prazer em fazer as coisas"],
  ["Feeling down, depressed, or hopeless", "Se ha sentido decaído(a), deprimido(a) o sin esperanzas", "Se sentir “para baixo”, deprimido/a ou sem perspectiva"],
  [
    "Trouble falling or staying asleep, or sleeping too much",
    "Ha tenido dificultad para quedarse o permanecer dormido(a), o ha dormido demasiado",
    "Dificuldade para pegar no sono ou permanecer dormindo, ou dormir mais do que de costume",
  ],
  ["Feeling tired or having little energy", "Se ha sentido cansado(a) o con poca energía", "Se sentir cansado/a ou com pouca energia"],
  ["Poor appetite or overeating", "Sin apetito o ha comido en exceso", "Falta de apetite ou comendo demais"],
  [
    "Feeling bad about yourself — or that you are a failure or have let yourself or your family down",
    "Se ha sentido mal con usted mismo(a) – o que es un fracaso o que ha quedado mal con usted mismo(a) o con su familia",
    "Se sentir mal consigo mesmo/a – ou achar que você é um fracasso ou que decepcionou sua família ou você mesmo/a",
  ],
  [
    "Trouble concentrating on things, such as reading the newspaper or watching television",
    "Ha tenido dificultad para concentrarse en ciertas actividades, tales como leer el periódico o ver la televisión",
    "Dificuldade para se concentrar nas coisas, como ler o jornal ou ver televisão",
  ],
  [
    "Moving or speaking so slowly that other people could have noticed? Or the opposite — being so fidgety or restless that you have been moving around a lot more than usual",
    "¿Se ha movido o hablado tan lento que otras personas podrían haberlo notado? o lo contrario – muy inquieto(a) o agitado(a) que ha estado moviéndose mucho más de lo normal",
    "Lentidão para se movimentar ou falar, a ponto das outras pessoas perceberem? Ou o oposto – estar tão agitado/a ou irrequieto/a que você fica andando de um lado para o outro muito mais do que de costume",
  ],
  [
    "Thoughts that you would be better off dead or of hurting yourself in some way",
    "Pensamientos de que estaría mejor muerto(a) o de lastimarse de alguna manera",
    "Pensar em se ferir de alguma maneira ou que seria melhor estar morto/a",
  ],
];

export const PHQ_9: InstrumentDefinition = {
  key: "phq-9",
  name: "PHQ-9",
  // 2: the reliable-change constants.
  version: "2",
  description: "Patient Health Questionnaire depression scale: nine items on the last two weeks, 0–27.",
  languages: ["en", "es", "pt-BR"],
  licence: "Free: developed with an educational grant from Pfizer Inc.; no permission required to reproduce, translate, display or distribute.",
  citation: "Kroenke K, Spitzer RL, Williams JBW. The PHQ-9: validity of a brief depression severity measure. J Gen Intern Med. 2001;16(9):606-613.",
  scoringSource: "https://www.phqscreeners.com/",
  instructions: {
    en: "Over the last 2 weeks, how often have you been bothered by any of the following problems?",
    es: "Durante las últimas 2 semanas, ¿qué tan seguido ha tenido molestias debido a los siguientes problemas?",
    "pt-BR": "Durante as 2 últimas semanas, com que frequência você foi incomodado/a por qualquer um dos problemas abaixo?",
  },
  items: ITEMS.map(([en, es, pt], index) => ({
    key: `q${index + 1}`,
    text: { en, es, "pt-BR": pt },
    // Item 9 above "Not at all" asks for a safety assessment.
    options: index === 8 ? FREQUENCY.map((option) => (option.score > 0 ? { ...option, critical: true as const } : option)) : FREQUENCY,
  })),
  subscales: [],
  scoreRanges: [
    band(0, 4, "Minimal", COLOURS.none),
    band(5, 9, "Mild", COLOURS.mild),
    band(10, 14, "Moderate", COLOURS.moderate),
    band(15, 19, "Moderately severe", COLOURS.high),
    band(20, 27, "Severe", COLOURS.severe),
  ],
  scoring: { method: "SUM", multiplier: 1, maxMissing: 2, display: "RAW" },
  reliableChange: { sd: 4.8, reliability: 0.84 },
  remissionBelow: 5,
  lowerIsBetter: true,
  changeSource:
    "Standard deviation: the PHQ-9 at baseline in the COBRA trial (Richards et al. Lancet. 2016;388(10047):871-880, Table 2). Reliability: test–retest (Kroenke, Spitzer & Williams 2001). Remission below 5: the HEDIS depression measures.",
  criticalMessage: SAFETY_MESSAGE,
};
