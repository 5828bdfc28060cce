/**
 * Names and titles for the benchmark's data set: multilingual, with the accents and letters that
 * search folding has to handle, drawn by a seeded generator so every run builds the same world.
 */
export const FIRST_NAMES = [
  "María", "José", "Ana", "Juan", "Lucía", "Mateo", "Sofía", "Martín", "Valentina", "Santiago",
  "Camila", "Mario", "Marta", "Marcos", "Martina", "Omar", "Pedro", "Carmen", "Diego", "Elena",
  "João", "Beatriz", "Gonçalo", "Inês", "Tomás", "Leonor", "Rafael", "Clara", "Thiago", "Larissa",
  "Łukasz", "Agnieszka", "Paweł", "Zofia", "Jürgen", "Anneliese", "Søren", "Åsa", "Björn", "Freja",
  "Thảo", "Minh", "Nguyệt", "Quang", "Aiko", "Haruto", "Noah", "Emma", "Olivia", "Liam",
  "Chloé", "Théo", "Zoé", "Hugo", "Amélie", "Nikolai", "Irina", "Fatima", "Youssef", "Leila",
];

export const LAST_NAMES = [
  "García", "Rodríguez", "González", "Fernández", "López", "Martínez", "Sánchez", "Pérez", "Gómez",
  "Díaz", "Muñoz", "Álvarez", "Romero", "Navarro", "Torres", "Ramírez", "Silva", "Santos", "Oliveira",
  "Souza", "Costa", "Pereira", "Carvalho", "Araújo", "Ribeiro", "Nowak", "Wójcik", "Kowalczyk",
  "Lewandowski", "Müller", "Schröder", "Jørgensen", "Lindqvist", "Åberg", "Nguyễn", "Trần", "Phạm",
  "Lê", "Tanaka", "Suzuki", "Dubois", "Lefèvre", "Moreau", "Ivanova", "Petrov", "Haddad", "Benali",
  "Smith", "Johnson", "Brown", "Taylor", "Wilson", "Castro", "Ortega", "Rubio", "Molina", "Delgado",
  "Vargas", "Herrera", "Medina",
];

export const FORM_TOPICS = [
  "Reading comprehension", "Anxiety screening", "Attention and focus", "Study habits", "Mathematics readiness",
  "Social skills", "Sleep quality", "Motivation inventory", "Wellbeing check-in", "Vocabulary", "Memory span",
  "Emotional regulation", "Career interests", "Learning styles", "Self-esteem", "Phonological awareness",
  "Executive function", "Bullying climate", "Classroom behaviour", "Parent partnership", "Stress at exams",
  "Writing fluency", "Problem solving", "Resilience",
];

/** A respondent whose full name occurs exactly once: the selective search. */
export const RARE_RESPONDENT = "Zoë Ørsted-Vasquez";
/** The common fragment search: María, Mario, Marta, Marcos, Martina, Omar, Martínez, Marín… */
export const COMMON_FRAGMENT = "mar";

/** Mulberry32: small, fast and good enough to make the data set reproducible. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
