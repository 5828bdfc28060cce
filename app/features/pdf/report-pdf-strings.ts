import type { QuestionType } from "../forms/question-types.ts";

/**
 * The fixed wording of the report PDF. Names, titles, answers and band labels come from the report
 * itself and are never translated; dates and numbers are formatted with Intl for the same locale.
 */
export type ReportPdfStrings = {
  documentTitle: string;
  respondentSection: string;
  assessmentSection: string;
  name: string;
  kind: string;
  kinds: Record<"student" | "candidate", string>;
  grade: string;
  age: string;
  ageValue: (years: string) => string;
  form: string;
  category: string;
  formType: string;
  completed: string;
  assigned: string;
  assignedBy: string;
  result: string;
  totalScore: string;
  percentage: string;
  band: string;
  noBandMatches: string;
  noBandsDefined: string;
  scoreBands: string;
  scoreMarker: string;
  answers: string;
  questionCount: (count: number, formatted: string) => string;
  questionTypes: Record<QuestionType, string>;
  noAnswer: string;
  notScored: string;
  continued: string;
  generated: (date: string) => string;
  submission: (id: string) => string;
  page: (page: string, pages: string) => string;
};

const en: ReportPdfStrings = {
  documentTitle: "Assessment report",
  respondentSection: "Respondent",
  assessmentSection: "Assessment",
  name: "Name",
  kind: "Type",
  kinds: { student: "Student", candidate: "Candidate" },
  grade: "Grade",
  age: "Age",
  ageValue: (years) => `${years} years`,
  form: "Form",
  category: "Category",
  formType: "Form type",
  completed: "Completed",
  assigned: "Assigned",
  assignedBy: "Assigned by",
  result: "Result",
  totalScore: "Total score",
  percentage: "Percentage",
  band: "Score band",
  noBandMatches: "No score band matches this total.",
  noBandsDefined: "This form defines no score bands.",
  scoreBands: "Score bands",
  scoreMarker: "Score",
  answers: "Answers",
  questionCount: (count, n) => (count === 1 ? "1 question" : `${n} questions`),
  questionTypes: { SINGLE_CHOICE: "Single choice", MULTIPLE_CHOICE: "Multiple choice", SCALE: "Scale", TEXT: "Free text" },
  noAnswer: "No answer",
  notScored: "not scored",
  continued: "continued",
  generated: (date) => `Generated ${date}`,
  submission: (id) => `Submission ${id}`,
  page: (page, pages) => `Page ${page} of ${pages}`,
};

const es: ReportPdfStrings = {
  documentTitle: "Informe de evaluación",
  respondentSection: "Participante",
  assessmentSection: "Evaluación",
  name: "Nombre",
  kind: "Tipo",
  kinds: { student: "Estudiante", candidate: "Candidato" },
  grade: "Curso",
  age: "Edad",
  ageValue: (years) => `${years} años`,
  form: "Formulario",
  category: "Categoría",
  formType: "Tipo de formulario",
  completed: "Completado",
  assigned: "Asignado",
  assignedBy: "Asignado por",
  result: "Resultado",
  totalScore: "Puntuación total",
  percentage: "Porcentaje",
  band: "Rango de puntuación",
  noBandMatches: "Ningún rango de puntuación corresponde a este total.",
  noBandsDefined: "Este formulario no define rangos de puntuación.",
  scoreBands: "Rangos de puntuación",
  scoreMarker: "Puntuación",
  answers: "Respuestas",
  questionCount: (count, n) => (count === 1 ? "1 pregunta" : `${n} preguntas`),
  questionTypes: { SINGLE_CHOICE: "Opción única", MULTIPLE_CHOICE: "Opción múltiple", SCALE: "Escala", TEXT: "Texto libre" },
  noAnswer: "Sin respuesta",
  notScored: "sin puntuación",
  continued: "continuación",
  generated: (date) => `Generado el ${date}`,
  submission: (id) => `Envío ${id}`,
  page: (page, pages) => `Página ${page} de ${pages}`,
};

const ptBR: ReportPdfStrings = {
  documentTitle: "Relatório de avaliação",
  respondentSection: "Participante",
  assessmentSection: "Avaliação",
  name: "Nome",
  kind: "Tipo",
  kinds: { student: "Estudante", candidate: "Candidato" },
  grade: "Série",
  age: "Idade",
  ageValue: (years) => `${years} anos`,
  form: "Formulário",
  category: "Categoria",
  formType: "Tipo de formulário",
  completed: "Concluído",
  assigned: "Atribuído",
  assignedBy: "Atribuído por",
  result: "Resultado",
  totalScore: "Pontuação total",
  percentage: "Percentual",
  band: "Faixa de pontuação",
  noBandMatches: "Nenhuma faixa de pontuação corresponde a este total.",
  noBandsDefined: "Este formulário não define faixas de pontuação.",
  scoreBands: "Faixas de pontuação",
  scoreMarker: "Pontuação",
  answers: "Respostas",
  questionCount: (count, n) => (count === 1 ? "1 pergunta" : `${n} perguntas`),
  questionTypes: { SINGLE_CHOICE: "Escolha única", MULTIPLE_CHOICE: "Múltipla escolha", SCALE: "Escala", TEXT: "Texto livre" },
  noAnswer: "Sem resposta",
  notScored: "sem pontuação",
  continued: "continuação",
  generated: (date) => `Gerado em ${date}`,
  submission: (id) => `Envio ${id}`,
  page: (page, pages) => `Página ${page} de ${pages}`,
};

/** "es", "es-MX" → Spanish; "pt", "pt-BR", "pt-PT" → Brazilian Portuguese; anything else → English. */
export function reportPdfStrings(locale: string): ReportPdfStrings {
  const language = locale.toLowerCase().split(/[-_]/)[0];
  if (language === "es") return es;
  if (language === "pt") return ptBR;
  return en;
}
