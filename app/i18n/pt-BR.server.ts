import type { ServerClinicWords, ServerDictionary } from "./en.server.ts";

/** Brazilian Portuguese, for the PDF and the e-mails. Keys come from en.server.ts; tsc fails when one is missing or extra. */
export const ptBRServer: ServerDictionary = {
  pdf: {
    documentTitle: "Relatório de avaliação",
    respondentSection: "Participante",
    assessmentSection: "Avaliação",
    name: "Nome",
    kind: "Tipo",
    kinds: { student: "Estudante", candidate: "Candidato" },
    externalId: "Número de registro",
    dateOfBirth: "Data de nascimento",
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
    subscales: "Subescalas",
    subscaleProrated: "proporcional às respostas que faltam",
    subscaleNotScorable: "faltam respostas demais para pontuar",
    changeSection: "Mudança ao longo do tempo",
    changeBaseline: "O primeiro resultado da pessoa neste formulário: a linha de base com que os seguintes são comparados.",
    changeNoScore: "Não é possível dar uma mudança: este resultado ou aquele com que é comparado não tem pontuação.",
    flagsSection: "Requer atenção",
    flagged: "Sinalizado: uma resposta ou uma pontuação deste resultado está marcada como crítica.",
    acknowledged: (name, date) => `Revisado por ${name}, ${date}`,
    notAcknowledged: "Ainda não revisado.",
    acknowledgementNote: "Nota",
    answers: "Respostas",
    questionCount: (count, formatted) => (count === 1 ? "1 pergunta" : `${formatted} perguntas`),
    questionTypes: { SINGLE_CHOICE: "Escolha única", MULTIPLE_CHOICE: "Múltipla escolha", SCALE: "Escala", TEXT: "Texto livre" },
    noAnswer: "Sem resposta",
    notScored: "sem pontuação",
    continued: "continuação",
    generated: (date) => `Gerado em ${date}`,
    submission: (id) => `Envio ${id}`,
    page: (page, pages) => `Página ${page} de ${pages}`,
  },

  mail: {
    signInCode: {
      subject: (code) => `${code} é o seu código de acesso`,
      body: (name, code) => [
        `Olá, ${name},`,
        `Seu código de acesso ao Assessment Service é ${code}. Ele vale por 10 minutos e funciona uma única vez.`,
        "Se não foi você que tentou entrar, troque sua senha: alguém a conhece.",
      ],
    },
    passwordReset: {
      subject: "Escolha uma nova senha",
      body: (name) => [
        `Olá, ${name},`,
        "Alguém (esperamos que você) pediu para escolher uma nova senha para sua conta do Assessment Service. O link vale por uma hora e funciona uma única vez.",
        "Se não foi você, ignore esta mensagem: sua senha continua a mesma.",
      ],
      action: "Escolher uma nova senha",
    },
    signInUnlock: {
      subject: "A entrada na sua conta está pausada",
      body: (name) => [
        `Olá, ${name},`,
        "Muitas senhas erradas foram tentadas na sua conta do Assessment Service a partir de muitos lugares, então por um tempo ela não aceita entradas de lugares novos.",
        "Para entrar agora, abra o link no navegador que você usa: durante a próxima hora esse navegador entra com sua senha como de costume. O link vale por uma hora e funciona uma única vez.",
        "Se esta mensagem se repetir, escolha uma nova senha e ative um segundo fator.",
      ],
      action: "Entrar agora",
    },
    invitation: {
      subject: (organization) => `Sua conta em ${organization}`,
      body: (name, organization) => [
        `Olá, ${name},`,
        `Uma conta foi criada para você no Assessment Service de ${organization}. Escolha sua senha pelo link abaixo; ele vale por 72 horas e funciona uma única vez.`,
      ],
      action: "Escolher minha senha",
    },
    testLink: {
      subject: (form) => `Um teste para você: ${form}`,
      body: (name, organization, form, expiry) => [
        `Olá, ${name},`,
        `${organization} pede que você responda “${form}”. Abra o link em qualquer celular ou computador; não é preciso ter conta.`,
        expiry ? `O link funciona até ${expiry}.` : "O link não expira.",
      ],
      action: "Abrir o teste",
    },
    reminder: {
      subject: (form) => `Lembrete: “${form}” aguarda suas respostas`,
      body: (name, organization, form, expiry) => [
        `Olá, ${name},`,
        `${organization} ainda aguarda suas respostas a “${form}”. Leva poucos minutos; o link está abaixo.`,
        expiry ? `O link funciona até ${expiry}.` : "O link não expira.",
      ],
      action: "Abrir o teste",
    },
    flaggedResult: {
      subject: (form) => `Um resultado requer sua atenção: ${form}`,
      body: (name, respondent, form, completedAt) => [
        `Olá, ${name},`,
        `${respondent} concluiu “${form}” em ${completedAt}, e o resultado está sinalizado: uma resposta ou uma pontuação está marcada como crítica neste formulário.`,
        "Abra o relatório para vê-lo e, depois disso, marque-o lá como revisado. Este e-mail não contém as respostas.",
      ],
      action: "Abrir o relatório",
    },
  },
};

/** As palavras de uma clínica no PDF e nos e-mails (ADR 81). */
export const ptBRServerClinic: ServerClinicWords = {
  pdf: { kinds: { student: "Paciente" }, grade: "Serviço" },
};
