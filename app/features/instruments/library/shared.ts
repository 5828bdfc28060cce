import type { InstrumentBand, LocalizedText } from "../instrument-definition.ts";

/**
 * What the library's files share: the colours of severity bands (lowest to highest) and the
 * default critical message. The colours are ours, not the instruments'; the message is ours too,
 * in every language the service speaks, and an organization replaces it with its own helplines.
 */
export const COLOURS = { none: "#1A7F37", mild: "#7CB342", moderate: "#D4A72C", high: "#E36209", severe: "#CF222E" } as const;

export const band = (min: number, max: number, label: string, color: string, critical = false): InstrumentBand => ({
  min,
  max,
  label: { en: label },
  color,
  critical,
});

export const SAFETY_MESSAGE: LocalizedText = {
  en: "Thank you for your answers. Some of them tell us you may be going through a very hard time. If you are thinking about hurting yourself, please talk to someone now: your doctor, a crisis line or your local emergency number. You do not have to face this alone.",
  es: "Gracias por tus respuestas. Algunas nos dicen que quizá estés pasando por un momento muy difícil. Si estás pensando en hacerte daño, habla con alguien ahora: tu médico, una línea de crisis o el número de emergencias de tu zona. No tienes que afrontarlo solo.",
  "pt-BR":
    "Obrigado pelas suas respostas. Algumas delas nos dizem que você pode estar passando por um momento muito difícil. Se você está pensando em se machucar, fale com alguém agora: seu médico, um serviço de apoio emocional ou o número de emergência da sua região. Você não precisa enfrentar isso sozinho.",
};
