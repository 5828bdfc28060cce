import { resolveLocale, type Locale } from "../i18n.ts";
import type { OutgoingMail } from "./mailer.server.ts";

/**
 * Every e-mail the service sends, in the recipient's language. Plain text first (it is what
 * clients that block HTML show), with a simple HTML twin.
 */
type Message = Omit<OutgoingMail, "to">;

const escapeHtml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

function compose(subject: string, paragraphs: string[], action?: { label: string; url: string }): Message {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : [])].join("\n\n");
  const html = [
    `<div style="font-family:system-ui,sans-serif;font-size:16px;line-height:1.5;color:#0f172a">`,
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    ...(action
      ? [
          `<p><a href="${escapeHtml(action.url)}" style="background:#4338ca;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>`,
          `<p style="font-size:13px;color:#475569">${escapeHtml(action.url)}</p>`,
        ]
      : []),
    `</div>`,
  ].join("");
  return { subject, text, html };
}

const strings = {
  en: {
    codeSubject: (code: string) => `${code} is your sign-in code`,
    code: (name: string, code: string) => [
      `Hello ${name},`,
      `Your sign-in code for the Assessment Service is ${code}. It is valid for 10 minutes and works once.`,
      "If you did not try to sign in, change your password: someone knows it.",
    ],
    resetSubject: "Choose a new password",
    reset: (name: string) => [
      `Hello ${name},`,
      "Someone (hopefully you) asked to choose a new password for your Assessment Service account. The link below is valid for one hour and works once.",
      "If you did not ask for this, ignore this message: your password stays as it is.",
    ],
    resetAction: "Choose a new password",
    unlockSubject: "Sign-in to your account is paused",
    unlock: (name: string) => [
      `Hello ${name},`,
      "Many wrong passwords were tried for your Assessment Service account from many places, so it takes no more sign-ins from new places for a while.",
      "To sign in now, open the link below in the browser you use: for the next hour that browser signs in with your password as usual. The link is valid for one hour and works once.",
      "If you keep seeing this message, choose a new password and turn on a second factor.",
    ],
    unlockAction: "Sign in now",
    inviteSubject: (organization: string) => `Your account at ${organization}`,
    invite: (name: string, organization: string) => [
      `Hello ${name},`,
      `An account has been created for you in the Assessment Service of ${organization}. Choose your password with the link below; it is valid for 72 hours and works once.`,
    ],
    inviteAction: "Choose your password",
    linkSubject: (form: string) => `A test for you: ${form}`,
    link: (name: string, organization: string, form: string, expiry: string | null) => [
      `Hello ${name},`,
      `${organization} asks you to answer “${form}”. Open the link below on any phone or computer; no account is needed.`,
      expiry ? `The link works until ${expiry}.` : "The link does not expire.",
    ],
    linkAction: "Open the test",
    reminderSubject: (form: string) => `Reminder: ${form} is waiting for your answers`,
    reminder: (name: string, organization: string, form: string, expiry: string | null) => [
      `Hello ${name},`,
      `${organization} is still waiting for your answers to “${form}”. It takes a few minutes; the link is below.`,
      expiry ? `The link works until ${expiry}.` : "The link does not expire.",
    ],
  },
  es: {
    codeSubject: (code: string) => `${code} es tu código de acceso`,
    code: (name: string, code: string) => [
      `Hola, ${name}:`,
      `Tu código de acceso al Assessment Service es ${code}. Es válido durante 10 minutos y solo funciona una vez.`,
      "Si no intentaste iniciar sesión, cambia tu contraseña: alguien la conoce.",
    ],
    resetSubject: "Elige una contraseña nueva",
    reset: (name: string) => [
      `Hola, ${name}:`,
      "Alguien (esperamos que tú) pidió elegir una contraseña nueva para tu cuenta del Assessment Service. El enlace es válido durante una hora y solo funciona una vez.",
      "Si no lo pediste, ignora este mensaje: tu contraseña no cambia.",
    ],
    resetAction: "Elegir una contraseña nueva",
    unlockSubject: "El inicio de sesión en tu cuenta está en pausa",
    unlock: (name: string) => [
      `Hola, ${name}:`,
      "Se probaron muchas contraseñas incorrectas para tu cuenta del Assessment Service desde muchos lugares, así que durante un tiempo no acepta inicios de sesión desde lugares nuevos.",
      "Para iniciar sesión ahora, abre el enlace en el navegador que usas: durante la próxima hora ese navegador inicia sesión con tu contraseña como siempre. El enlace es válido durante una hora y solo funciona una vez.",
      "Si este mensaje se repite, elige una contraseña nueva y activa un segundo factor.",
    ],
    unlockAction: "Iniciar sesión ahora",
    inviteSubject: (organization: string) => `Tu cuenta en ${organization}`,
    invite: (name: string, organization: string) => [
      `Hola, ${name}:`,
      `Se ha creado una cuenta para ti en el Assessment Service de ${organization}. Elige tu contraseña con el enlace; es válido durante 72 horas y solo funciona una vez.`,
    ],
    inviteAction: "Elegir mi contraseña",
    linkSubject: (form: string) => `Una prueba para ti: ${form}`,
    link: (name: string, organization: string, form: string, expiry: string | null) => [
      `Hola, ${name}:`,
      `${organization} te pide que respondas «${form}». Abre el enlace en cualquier teléfono u ordenador; no necesitas una cuenta.`,
      expiry ? `El enlace funciona hasta el ${expiry}.` : "El enlace no caduca.",
    ],
    linkAction: "Abrir la prueba",
    reminderSubject: (form: string) => `Recordatorio: «${form}» espera tus respuestas`,
    reminder: (name: string, organization: string, form: string, expiry: string | null) => [
      `Hola, ${name}:`,
      `${organization} todavía espera tus respuestas a «${form}». Son unos minutos; el enlace está abajo.`,
      expiry ? `El enlace funciona hasta el ${expiry}.` : "El enlace no caduca.",
    ],
  },
  "pt-BR": {
    codeSubject: (code: string) => `${code} é o seu código de acesso`,
    code: (name: string, code: string) => [
      `Olá, ${name},`,
      `Seu código de acesso ao Assessment Service é ${code}. Ele vale por 10 minutos e funciona uma única vez.`,
      "Se não foi você que tentou entrar, troque sua senha: alguém a conhece.",
    ],
    resetSubject: "Escolha uma nova senha",
    reset: (name: string) => [
      `Olá, ${name},`,
      "Alguém (esperamos que você) pediu para escolher uma nova senha para sua conta do Assessment Service. O link vale por uma hora e funciona uma única vez.",
      "Se não foi você, ignore esta mensagem: sua senha continua a mesma.",
    ],
    resetAction: "Escolher uma nova senha",
    unlockSubject: "A entrada na sua conta está pausada",
    unlock: (name: string) => [
      `Olá, ${name},`,
      "Muitas senhas erradas foram tentadas na sua conta do Assessment Service a partir de muitos lugares, então por um tempo ela não aceita entradas de lugares novos.",
      "Para entrar agora, abra o link no navegador que você usa: durante a próxima hora esse navegador entra com sua senha como de costume. O link vale por uma hora e funciona uma única vez.",
      "Se esta mensagem se repetir, escolha uma nova senha e ative um segundo fator.",
    ],
    unlockAction: "Entrar agora",
    inviteSubject: (organization: string) => `Sua conta em ${organization}`,
    invite: (name: string, organization: string) => [
      `Olá, ${name},`,
      `Uma conta foi criada para você no Assessment Service de ${organization}. Escolha sua senha pelo link abaixo; ele vale por 72 horas e funciona uma única vez.`,
    ],
    inviteAction: "Escolher minha senha",
    linkSubject: (form: string) => `Um teste para você: ${form}`,
    link: (name: string, organization: string, form: string, expiry: string | null) => [
      `Olá, ${name},`,
      `${organization} pede que você responda “${form}”. Abra o link em qualquer celular ou computador; não é preciso ter conta.`,
      expiry ? `O link funciona até ${expiry}.` : "O link não expira.",
    ],
    linkAction: "Abrir o teste",
    reminderSubject: (form: string) => `Lembrete: “${form}” aguarda suas respostas`,
    reminder: (name: string, organization: string, form: string, expiry: string | null) => [
      `Olá, ${name},`,
      `${organization} ainda aguarda suas respostas a “${form}”. Leva poucos minutos; o link está abaixo.`,
      expiry ? `O link funciona até ${expiry}.` : "O link não expira.",
    ],
  },
} satisfies Record<Locale, unknown>;

export function twoFactorCodeMail(locale: string, name: string, code: string): Message {
  const t = strings[resolveLocale(locale)];
  return compose(t.codeSubject(code), t.code(name, code));
}

export function passwordResetMail(locale: string, name: string, url: string): Message {
  const t = strings[resolveLocale(locale)];
  return compose(t.resetSubject, t.reset(name), { label: t.resetAction, url });
}

/** The owner's way past a sign-in paused by guesses from many places (ADR 47). */
export function signInUnlockMail(locale: string, name: string, url: string): Message {
  const t = strings[resolveLocale(locale)];
  return compose(t.unlockSubject, t.unlock(name), { label: t.unlockAction, url });
}

export function invitationMail(locale: string, name: string, organization: string, url: string): Message {
  const t = strings[resolveLocale(locale)];
  return compose(t.inviteSubject(organization), t.invite(name, organization), { label: t.inviteAction, url });
}

/** A test link for its respondent; `expiry` already written in the organization's time zone and the language. */
export function testLinkMail(locale: string, name: string, organization: string, form: string, expiry: string | null, url: string): Message {
  const t = strings[resolveLocale(locale)];
  return compose(t.linkSubject(form), t.link(name, organization, form, expiry), { label: t.linkAction, url });
}

/** A reminder of a link still waiting for answers, like the link's own e-mail. */
export function reminderMail(locale: string, name: string, organization: string, form: string, expiry: string | null, url: string): Message {
  const t = strings[resolveLocale(locale)];
  return compose(t.reminderSubject(form), t.reminder(name, organization, form, expiry), { label: t.linkAction, url });
}
