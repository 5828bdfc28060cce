import type { Dictionary } from "./en.ts";

/** Brazilian Portuguese (“você”). Keys come from en.ts; tsc fails when one is missing or extra. */
export const ptBR: Dictionary = {
  app: {
    name: "Assessment Service",
    tagline: "Avaliações com pontuação para escolas e clínicas",
  },

  common: {
    skipToContent: "Pular para o conteúdo",
    menu: "Menu",
    close: "Fechar",
    search: "Buscar",
    searchPlaceholder: "Buscar…",
    clear: "Limpar",
    filter: "Filtrar",
    apply: "Aplicar",
    save: "Salvar",
    saving: "Salvando…",
    cancel: "Cancelar",
    working: "Processando…",
    required: "obrigatório",
    optional: "opcional",
    copy: "Copiar",
    copied: "Copiado",
    copyFailed: "Não foi possível copiar: selecione o texto e copie você mesmo.",
    viewAll: "Ver tudo",
    none: "Nenhum",
  },

  pagination: {
    label: "Paginação",
    previous: "Anterior",
    next: "Próxima",
    page: (page) => `Página ${page}`,
    showing: (from, to, total) => `Mostrando ${from}–${to} de ${total}`,
  },

  language: {
    label: "Idioma",
  },

  nav: {
    label: "Principal",
    home: "Início",
    forms: "Formulários",
    students: "Alunos",
    candidates: "Candidatos",
    assignments: "Atribuições",
    reports: "Relatórios",
    admin: "Administração",
    profile: "Perfil",
  },

  user: {
    menu: "Conta",
    profile: "Seu perfil",
    signOut: "Sair",
    signingOut: "Saindo…",
    roles: {
      SUPER_ADMIN: "Superadministrador",
      ADMIN: "Administrador",
      TEACHER: "Professor",
      STUDENT: "Aluno",
    },
  },

  respondent: {
    student: "Aluno",
    candidate: "Candidato",
  },

  score: {
    noBand: "Sem faixa",
    of: (total, max) => `${total} de ${max}`,
  },

  flash: {
    saved: "Salvo.",
    created: "Criado.",
    deleted: "Excluído.",
  },

  errors: {
    notFoundTitle: "Página não encontrada",
    notFoundText: "A página que você procurou não existe ou não está disponível para você.",
    forbiddenTitle: "Acesso não permitido",
    forbiddenText: "Sua conta não pode abrir esta página. Peça acesso a um administrador se precisar.",
    errorTitle: "Algo deu errado",
    errorText: "Não conseguimos mostrar esta página. Tente novamente em instantes.",
    goHome: "Ir para a página inicial",
    errorCode: (status) => `Erro ${status}`,
  },

  home: {
    title: "Início",
    welcome: (name) => `Olá, ${name}`,
    intro: "Veja o que precisa da sua atenção.",
    atAGlance: "Resumo",
    counts: {
      students: "Alunos",
      candidates: "Candidatos",
      forms: "Formulários",
      pending: "Testes pendentes",
      completedThisMonth: "Concluídos este mês",
    },
    quickActions: "Ações rápidas",
    newForm: "Novo formulário",
    newStudent: "Novo aluno",
    assign: "Atribuir um teste",
    reports: "Relatórios",
    pendingTitle: "Atribuições pendentes",
    pendingDescription: "Testes enviados e ainda não respondidos, dos mais recentes aos mais antigos.",
    pendingEmpty: "Nada pendente: todos os testes que você atribuiu foram respondidos ou expiraram.",
    assigned: (date) => `Atribuído em ${date}`,
    expires: (date) => `Expira em ${date}`,
    linkLabel: (name, form) => `Link do teste para ${name}: ${form}`,
    recentTitle: "Resultados recentes",
    recentDescription: "Os últimos testes concluídos.",
    recentEmpty: "Ainda não há resultados. Eles aparecem aqui assim que alguém conclui um teste.",
    completed: (date) => `Concluído em ${date}`,
    viewAllAssignments: "Todas as atribuições",
    viewAllReports: "Todos os relatórios",
    studentPendingTitle: "Seus testes",
    studentPendingDescription: "Testes que seus professores enviaram e que você ainda não respondeu.",
    studentPendingEmpty: "Você não tem testes para responder agora.",
    studentLinkHint: "Abra o teste pelo link que seu professor enviou.",
  },

  testLink: {
    title: "Seu teste",
    hello: (name) => `Olá, ${name}`,
    intro: "Responda às perguntas abaixo e toque em “Enviar respostas” no final. Perguntas marcadas com * são obrigatórias.",
    required: "obrigatória",
    answerHere: "Sua resposta",
    send: "Enviar respostas",
    sending: "Enviando…",
    fixErrors: "Algumas respostas precisam de atenção:",
    needsAnswer: "Esta pergunta precisa de uma resposta.",
    doneTitle: "Obrigado",
    doneText: "Suas respostas foram recebidas. Você já pode fechar esta página.",
    expiredTitle: "Este link expirou",
    expiredText: "Peça um novo link a quem o enviou.",
    notFoundTitle: "Teste não encontrado",
    notFoundText: "Este link não leva a um teste. Verifique se você copiou o endereço completo.",
    question: (n) => `Pergunta ${n}`,
  },
};
