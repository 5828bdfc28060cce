import type { ServerClinicWords, ServerDictionary } from "./en.server.ts";

/** Spanish (neutral, “tú”), for the PDF and the e-mails. Keys come from en.server.ts; tsc fails when one is missing or extra. */
export const esServer: ServerDictionary = {
  pdf: {
    documentTitle: "Informe de evaluación",
    respondentSection: "Participante",
    assessmentSection: "Evaluación",
    name: "Nombre",
    kind: "Tipo",
    kinds: { student: "Estudiante", candidate: "Candidato" },
    externalId: "Número de expediente",
    dateOfBirth: "Fecha de nacimiento",
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
    subscales: "Subescalas",
    subscaleProrated: "prorrateada por respuestas que faltan",
    subscaleNotScorable: "faltan demasiadas respuestas para puntuar",
    changeSection: "Cambio a lo largo del tiempo",
    changeBaseline: "El primer resultado de la persona en este formulario: la línea base con la que se comparan los siguientes.",
    changeNoScore: "No se puede dar un cambio: este resultado o aquel con el que se compara no tiene puntuación.",
    flagsSection: "Requiere atención",
    flagged: "Marcado: una respuesta o una puntuación de este resultado está marcada como crítica.",
    acknowledged: (name, date) => `Revisado por ${name}, ${date}`,
    notAcknowledged: "Aún no se ha revisado.",
    acknowledgementNote: "Nota",
    answers: "Respuestas",
    questionCount: (count, formatted) => (count === 1 ? "1 pregunta" : `${formatted} preguntas`),
    questionTypes: { SINGLE_CHOICE: "Opción única", MULTIPLE_CHOICE: "Opción múltiple", SCALE: "Escala", TEXT: "Texto libre" },
    noAnswer: "Sin respuesta",
    notScored: "sin puntuación",
    continued: "continuación",
    generated: (date) => `Generado el ${date}`,
    submission: (id) => `Envío ${id}`,
    page: (page, pages) => `Página ${page} de ${pages}`,
  },

  mail: {
    signInCode: {
      subject: (code) => `${code} es tu código de acceso`,
      body: (name, code) => [
        `Hola, ${name}:`,
        `Tu código de acceso al Assessment Service es ${code}. Es válido durante 10 minutos y solo funciona una vez.`,
        "Si no intentaste iniciar sesión, cambia tu contraseña: alguien la conoce.",
      ],
    },
    passwordReset: {
      subject: "Elige una contraseña nueva",
      body: (name) => [
        `Hola, ${name}:`,
        "Alguien (esperamos que tú) pidió elegir una contraseña nueva para tu cuenta del Assessment Service. El enlace es válido durante una hora y solo funciona una vez.",
        "Si no lo pediste, ignora este mensaje: tu contraseña no cambia.",
      ],
      action: "Elegir una contraseña nueva",
    },
    signInUnlock: {
      subject: "El inicio de sesión en tu cuenta está en pausa",
      body: (name) => [
        `Hola, ${name}:`,
        "Se probaron muchas contraseñas incorrectas para tu cuenta del Assessment Service desde muchos lugares, así que durante un tiempo no acepta inicios de sesión desde lugares nuevos.",
        "Para iniciar sesión ahora, abre el enlace en el navegador que usas: durante la próxima hora ese navegador inicia sesión con tu contraseña como siempre. El enlace es válido durante una hora y solo funciona una vez.",
        "Si este mensaje se repite, elige una contraseña nueva y activa un segundo factor.",
      ],
      action: "Iniciar sesión ahora",
    },
    invitation: {
      subject: (organization) => `Tu cuenta en ${organization}`,
      body: (name, organization) => [
        `Hola, ${name}:`,
        `Se ha creado una cuenta para ti en el Assessment Service de ${organization}. Elige tu contraseña con el enlace; es válido durante 72 horas y solo funciona una vez.`,
      ],
      action: "Elegir mi contraseña",
    },
    testLink: {
      subject: (form) => `Una prueba para ti: ${form}`,
      body: (name, organization, form, expiry) => [
        `Hola, ${name}:`,
        `${organization} te pide que respondas «${form}». Abre el enlace en cualquier teléfono u ordenador; no necesitas una cuenta.`,
        expiry ? `El enlace funciona hasta el ${expiry}.` : "El enlace no caduca.",
      ],
      action: "Abrir la prueba",
    },
    reminder: {
      subject: (form) => `Recordatorio: «${form}» espera tus respuestas`,
      body: (name, organization, form, expiry) => [
        `Hola, ${name}:`,
        `${organization} todavía espera tus respuestas a «${form}». Son unos minutos; el enlace está abajo.`,
        expiry ? `El enlace funciona hasta el ${expiry}.` : "El enlace no caduca.",
      ],
      action: "Abrir la prueba",
    },
    flaggedResult: {
      subject: (form) => `Un resultado requiere tu atención: ${form}`,
      body: (name, respondent, form, completedAt) => [
        `Hola, ${name}:`,
        `${respondent} completó «${form}» el ${completedAt}, y el resultado está marcado: una respuesta o una puntuación está marcada como crítica en este formulario.`,
        "Abre el informe para verlo y, cuando lo hayas hecho, márcalo allí como revisado. Este correo no contiene las respuestas.",
      ],
      action: "Abrir el informe",
    },
  },
};

/** Las palabras de una clínica en el PDF y los correos (ADR 81). */
export const esServerClinic: ServerClinicWords = {
  pdf: { kinds: { student: "Paciente" }, grade: "Servicio" },
};
