import type { Dictionary } from "./en.ts";

/** Spanish (neutral, “tú”). Keys come from en.ts; tsc fails when one is missing or extra. */
export const es: Dictionary = {
  app: {
    name: "Assessment Service",
    tagline: "Evaluaciones con puntuación para escuelas y clínicas",
  },

  common: {
    skipToContent: "Saltar al contenido",
    menu: "Menú",
    close: "Cerrar",
    search: "Buscar",
    searchPlaceholder: "Buscar…",
    clear: "Limpiar",
    filter: "Filtrar",
    apply: "Aplicar",
    save: "Guardar",
    saving: "Guardando…",
    cancel: "Cancelar",
    working: "Procesando…",
    required: "obligatorio",
    optional: "opcional",
    copy: "Copiar",
    copied: "Copiado",
    copyFailed: "No se pudo copiar: selecciona el texto y cópialo tú.",
    viewAll: "Ver todo",
    none: "Ninguno",
  },

  pagination: {
    label: "Paginación",
    previous: "Anterior",
    next: "Siguiente",
    page: (page) => `Página ${page}`,
    showing: (from, to, total) => `Mostrando ${from}–${to} de ${total}`,
  },

  language: {
    label: "Idioma",
  },

  nav: {
    label: "Principal",
    home: "Inicio",
    forms: "Formularios",
    students: "Estudiantes",
    candidates: "Candidatos",
    assignments: "Asignaciones",
    reports: "Informes",
    admin: "Administración",
    profile: "Perfil",
  },

  user: {
    menu: "Cuenta",
    profile: "Tu perfil",
    signOut: "Cerrar sesión",
    signingOut: "Cerrando sesión…",
    roles: {
      SUPER_ADMIN: "Superadministrador",
      ADMIN: "Administrador",
      TEACHER: "Docente",
      STUDENT: "Estudiante",
    },
  },

  respondent: {
    student: "Estudiante",
    candidate: "Candidato",
  },

  score: {
    noBand: "Sin banda",
    of: (total, max) => `${total} de ${max}`,
  },

  flash: {
    saved: "Guardado.",
    created: "Creado.",
    deleted: "Eliminado.",
  },

  errors: {
    notFoundTitle: "Página no encontrada",
    notFoundText: "La página que buscas no existe o no está disponible para ti.",
    forbiddenTitle: "Acceso no permitido",
    forbiddenText: "Tu cuenta no puede abrir esta página. Pide acceso a un administrador si lo necesitas.",
    errorTitle: "Algo salió mal",
    errorText: "No pudimos mostrar esta página. Inténtalo de nuevo en un momento.",
    goHome: "Ir a la página de inicio",
    errorCode: (status) => `Error ${status}`,
  },

  home: {
    title: "Inicio",
    welcome: (name) => `Hola, ${name}`,
    intro: "Esto es lo que necesita tu atención.",
    atAGlance: "Resumen",
    counts: {
      students: "Estudiantes",
      candidates: "Candidatos",
      forms: "Formularios",
      pending: "Pruebas pendientes",
      completedThisMonth: "Completadas este mes",
    },
    quickActions: "Acciones rápidas",
    newForm: "Nuevo formulario",
    newStudent: "Nuevo estudiante",
    assign: "Asignar una prueba",
    reports: "Informes",
    pendingTitle: "Asignaciones pendientes",
    pendingDescription: "Pruebas enviadas que aún no se han respondido, de la más reciente a la más antigua.",
    pendingEmpty: "No hay nada pendiente: todas las pruebas que asignaste se respondieron o caducaron.",
    assigned: (date) => `Asignada el ${date}`,
    expires: (date) => `Caduca el ${date}`,
    linkLabel: (name, form) => `Enlace de la prueba para ${name}: ${form}`,
    recentTitle: "Resultados recientes",
    recentDescription: "Las últimas pruebas completadas.",
    recentEmpty: "Todavía no hay resultados. Aparecerán aquí en cuanto alguien complete una prueba.",
    completed: (date) => `Completada el ${date}`,
    viewAllAssignments: "Todas las asignaciones",
    viewAllReports: "Todos los informes",
    studentPendingTitle: "Tus pruebas",
    studentPendingDescription: "Pruebas que te enviaron tus docentes y que aún no has respondido.",
    studentPendingEmpty: "Ahora mismo no tienes pruebas por responder.",
    studentLinkHint: "Abre la prueba desde el enlace que te envió tu docente.",
  },

  testLink: {
    title: "Tu prueba",
    hello: (name) => `Hola, ${name}`,
    intro: "Responde las preguntas y pulsa «Enviar respuestas» al final. Las preguntas marcadas con * son obligatorias.",
    required: "obligatoria",
    answerHere: "Tu respuesta",
    send: "Enviar respuestas",
    sending: "Enviando…",
    fixErrors: "Algunas respuestas necesitan atención:",
    needsAnswer: "Esta pregunta necesita una respuesta.",
    doneTitle: "Gracias",
    doneText: "Hemos recibido tus respuestas. Ya puedes cerrar esta página.",
    expiredTitle: "Este enlace ha caducado",
    expiredText: "Pide un enlace nuevo a la persona que te lo envió.",
    notFoundTitle: "Prueba no encontrada",
    notFoundText: "Este enlace no lleva a ninguna prueba. Comprueba que copiaste la dirección completa.",
    question: (n) => `Pregunta ${n}`,
  },
};
