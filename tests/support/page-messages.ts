import { dictionaries } from "./dictionaries.ts";
import type { Locale } from "../../app/lib/i18n.ts";

/**
 * Finds the messages a page shows about errors (every `role="alert"` box and every field's
 * `…-error` text) and tells which of them are not sentences of the page's own dictionary: an
 * English server message on a Spanish page, say.
 */

const SLOT = "\u0001";

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Every entry of a dictionary as a matcher: a sentence exactly, a function with any values in its slots. */
function matchersOf(node: unknown, into: RegExp[] = []): RegExp[] {
  if (typeof node === "string") into.push(new RegExp(`^${escapeRegExp(node.trim())}$`));
  else if (typeof node === "function") {
    const fn = node as (...values: string[]) => string;
    const text = fn(...Array.from({ length: fn.length }, () => SLOT)).trim();
    into.push(new RegExp(`^${text.split(SLOT).map(escapeRegExp).join(".+?")}$`, "s"));
    // A count of one may read differently ("1 field needs attention.").
    into.push(new RegExp(`^${escapeRegExp((fn as (...values: unknown[]) => string)(...Array.from({ length: fn.length }, () => 1)).trim())}$`));
  } else if (node && typeof node === "object") for (const value of Object.values(node)) matchersOf(value, into);
  return into;
}

const matchers = new Map<Locale, RegExp[]>();
const matchersFor = (locale: Locale) => {
  if (!matchers.has(locale)) matchers.set(locale, matchersOf(dictionaries[locale]));
  return matchers.get(locale)!;
};

const decode = (text: string) =>
  text
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&nbsp;", " ")
    .replaceAll("&amp;", "&");

/** The element that starts at `start` (its opening tag), up to its matching end tag. */
function elementAt(html: string, start: number): string {
  const name = /^<([a-zA-Z0-9]+)/.exec(html.slice(start))![1]!;
  const tags = new RegExp(`<(/?)${name}\\b[^>]*?(/?)>`, "g");
  tags.lastIndex = start;
  let depth = 0;
  for (let match = tags.exec(html); match; match = tags.exec(html)) {
    if (match[2] === "/") continue;
    depth += match[1] === "/" ? -1 : 1;
    if (depth === 0) return html.slice(start, match.index + match[0].length);
  }
  return html.slice(start);
}

/** The texts (each text node on its own) of the page's alerts and field errors. */
export function errorMessagesIn(html: string): string[] {
  const body = html.slice(html.indexOf("<body"));
  const texts: string[] = [];
  for (const marker of body.matchAll(/<[a-zA-Z0-9]+\b[^>]*(?:role="alert"|id="[^"]*-error")[^>]*>/g)) {
    const element = elementAt(body, marker.index);
    for (const piece of element.split(/<!--[\s\S]*?-->|<[^>]+>/)) {
      const text = decode(piece).replace(/\s+/g, " ").trim();
      // Punctuation between two translated parts ("Pregunta 1: …") is not a message.
      if (/\p{L}/u.test(text)) texts.push(text);
    }
  }
  return texts;
}

/** Messages on the page that are no sentence of `locale`'s dictionary. */
export function foreignMessages(html: string, locale: Locale): string[] {
  const known = matchersFor(locale);
  return errorMessagesIn(html).filter((text) => !known.some((matcher) => matcher.test(text)));
}
