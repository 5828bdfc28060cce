import bidiFactory from "bidi-js";
import {
  candidateFamilies,
  type CjkPreference,
  cjkPreferenceOf,
  type FaceStyle,
  isRightToLeft,
  number,
  type ScriptFace,
  type ScriptFamily,
  scriptFace,
  type ShapedGlyph,
} from "./script-fonts.server.ts";

/**
 * Text that Noto Sans alone cannot set: characters from the script fonts (script-fonts.server.ts)
 * and right-to-left text. A line is split into runs of one font and one bidi level (the Unicode
 * Bidirectional Algorithm from `bidi-js`), each run in a script font is shaped by HarfBuzz, the runs
 * are put in visual order (rule L2), and each is drawn where the previous one ended: Noto Sans runs
 * through jsPDF as any other text, script runs as glyph ids written into the page. Measuring sums
 * the runs' advances, so wrapping, cutting with an ellipsis and alignment work as for Latin text.
 */

let bidiInstance: ReturnType<typeof bidiFactory> | undefined;
const bidi = () => {
  bidiInstance ??= bidiFactory();
  return bidiInstance;
};

/** What the layout needs from the document it draws in. */
export type LayoutHost = {
  /** The characters Noto Sans draws. */
  readonly baseSupported: ReadonlySet<number>;
  /** Han characters' family when the text itself does not say (kana, Hangul). */
  readonly cjk: CjkPreference;
  /** The width of Noto Sans text in points. */
  baseWidth(text: string, size: number, bold: boolean): number;
  /** Draws Noto Sans text from x (left) on the baseline y. */
  drawBase(text: string, x: number, y: number, size: number, bold: boolean): void;
  /** Draws shaped glyphs from x on the baseline y. */
  drawGlyphs(face: ScriptFace, glyphs: readonly PlacedGlyph[], x: number, y: number, size: number): void;
};

/** A glyph to draw with the text it stands for (empty for the second and later glyphs of a cluster). */
export type PlacedGlyph = ShapedGlyph & { text: string };

type Run =
  | { kind: "base"; text: string; level: number; width: number }
  | { kind: "shaped"; face: ScriptFace; glyphs: PlacedGlyph[]; level: number; width: number };

const INVISIBLE = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
// biome-ignore lint/suspicious/noMisleadingCharacterClass: joiners and selectors are listed one by one on purpose, each char tested alone.
const ATTACHING = /[\p{M}\u200c\u200d\ufe00-\ufe0f\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/u;
const REPLACEMENT = "\ufffd";

/** Whether `text` needs this layout: a character Noto Sans lacks, or a right-to-left one. */
export function needsLayout(text: string, supported: ReadonlySet<number>): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    if (code > 0xffff) return true;
    if (code === 10 || code === 32) continue;
    if (!supported.has(code) || isRightToLeft(code)) return true;
  }
  return false;
}

type Item = { family: ScriptFamily | "base" | "missing" | "skip"; start: number; end: number; level: number };

/** The characters of one line in logical order, each with its font and bidi level. */
function itemize(text: string, host: LayoutHost, style: FaceStyle): { items: Item[]; levels: Uint8Array } {
  const { levels } = bidi().getEmbeddingLevels(text);
  const cjk = cjkPreferenceOf(text) ?? host.cjk;
  const items: Item[] = [];
  let previous: Exclude<Item["family"], "skip"> | null = null;
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!;
    const length = code > 0xffff ? 2 : 1;
    const char = text.slice(i, i + length);
    let family: Item["family"];
    if (INVISIBLE.test(char)) {
      family = "skip";
    } else if (ATTACHING.test(char)) {
      if (previous && previous !== "base" && previous !== "missing") family = previous;
      else family = previous === "base" && host.baseSupported.has(code) ? "base" : "skip";
    } else {
      const emojiPresentation = text.charCodeAt(i + length) === 0xfe0f;
      family = "missing";
      if (host.baseSupported.has(code) && !(emojiPresentation && scriptFace("emoji", style).hb.glyphOf(code))) {
        family = "base";
      } else {
        for (const candidate of emojiPresentation ? (["emoji", ...candidateFamilies(code, cjk)] as const) : candidateFamilies(code, cjk)) {
          if (scriptFace(candidate, style).hb.glyphOf(code)) {
            family = candidate;
            break;
          }
        }
      }
    }
    items.push({ family, start: i, end: i + length, level: levels[i]! });
    if (family !== "skip") previous = family;
    i += length;
  }
  return { items, levels };
}

/** Mirrored characters (brackets) and reversed order for a Noto Sans run inside right-to-left text. */
function visualBaseText(text: string, rtl: boolean): string {
  if (!rtl) return text;
  return Array.from(text, (char) => bidi().getMirroredCharacter(char) ?? char)
    .reverse()
    .join("");
}

/**
 * Each glyph with the text it stands for: a cluster of one glyph (a letter, a contextual form, a
 * ligature) its whole text; a cluster of several (a letter HarfBuzz decomposed into base and mark,
 * an emoji and its variation selector) the whole text on its first glyph that advances, nothing on
 * the others, so that text extraction never splits a letter from its mark.
 */
function placeGlyphs(text: string, glyphs: ShapedGlyph[], end: number, rtl: boolean): PlacedGlyph[] {
  const clusters = [...new Set(glyphs.map((glyph) => glyph.cluster))].sort((a, b) => a - b);
  const clusterEnd = new Map(clusters.map((cluster, index) => [cluster, clusters[index + 1] ?? end]));
  const logical = rtl ? [...glyphs].reverse() : glyphs;
  const owner = new Map<number, ShapedGlyph>();
  for (const glyph of logical) {
    const current = owner.get(glyph.cluster);
    if (!current || (current.advance === 0 && glyph.advance !== 0)) owner.set(glyph.cluster, glyph);
  }
  return glyphs.map((glyph) => ({ ...glyph, text: owner.get(glyph.cluster) === glyph ? text.slice(glyph.cluster, clusterEnd.get(glyph.cluster)) : "" }));
}

/** The runs of a line (no line breaks in it) in visual order, measured. */
function layoutLine(text: string, host: LayoutHost, size: number, bold: boolean): Run[] {
  const style: FaceStyle = bold ? "bold" : "normal";
  const { items } = itemize(text, host, style);
  // Runs: consecutive items of one font and one level.
  const groups: Item[] = [];
  for (const item of items) {
    if (item.family === "skip") continue;
    const last = groups[groups.length - 1];
    // Invisible characters between two items of a run stay in it (HarfBuzz ignores them).
    if (last && last.family === item.family && last.level === item.level) last.end = item.end;
    else groups.push({ ...item });
  }
  const runs: Run[] = groups.map((group) => {
    const rtl = (group.level & 1) === 1;
    if (group.family === "base" || group.family === "missing") {
      const logical =
        group.family === "missing"
          ? REPLACEMENT
          : Array.from(text.slice(group.start, group.end))
              .filter((char) => !INVISIBLE.test(char) && (host.baseSupported.has(char.codePointAt(0)!) || char === " " || char === "\n"))
              .join("");
      const visual = visualBaseText(logical, rtl);
      return { kind: "base", text: visual, level: group.level, width: host.baseWidth(visual, size, bold) };
    }
    const face = scriptFace(group.family as ScriptFamily, style);
    const shaped = face.hb.shape(text, group.start, group.end, rtl).filter((glyph) => glyph.gid !== 0);
    const glyphs = placeGlyphs(text, shaped, group.end, rtl);
    const width = (glyphs.reduce((sum, glyph) => sum + glyph.advance, 0) * size) / face.unitsPerEm;
    return { kind: "shaped", face, glyphs, level: group.level, width };
  });
  // Rule L2: from the highest level down to the lowest odd one, reverse every sequence of runs at that level or above.
  const highest = Math.max(0, ...runs.map((run) => run.level));
  const lowestOdd = Math.min(...runs.map((run) => run.level).filter((level) => level & 1), highest + 1);
  for (let level = highest; level >= lowestOdd && level > 0; level--) {
    for (let i = 0; i < runs.length; ) {
      if (runs[i]!.level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < runs.length && runs[j]!.level >= level) j++;
      const reversed = runs.slice(i, j).reverse();
      runs.splice(i, j - i, ...reversed);
      i = j;
    }
  }
  return runs;
}

/** The width of a line of text in points. */
export function measureLine(text: string, host: LayoutHost, size: number, bold: boolean): number {
  return layoutLine(text, host, size, bold).reduce((sum, run) => sum + run.width, 0);
}

/** Draws a line of text at x (its left, right or centre per `align`) on the baseline y. */
export function drawLine(text: string, x: number, y: number, host: LayoutHost, size: number, bold: boolean, align: "left" | "right" | "center") {
  const runs = layoutLine(text, host, size, bold);
  const width = runs.reduce((sum, run) => sum + run.width, 0);
  let at = align === "left" ? x : align === "right" ? x - width : x - width / 2;
  for (const run of runs) {
    if (run.kind === "base") {
      if (run.text) host.drawBase(run.text, at, y, size, bold);
    } else if (run.glyphs.length > 0) {
      host.drawGlyphs(run.face, run.glyphs, at, y, size);
    }
    at += run.width;
  }
}

// ---------------------------------------------------------------------------------------------
// Wrapping.

const CLOSING = new Set(Array.from("、。，．：；？！）」』】〕〉》〗〙〛’”ー々ゝゞぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ・…‥!),.:;?]}"));
const OPENING = new Set(Array.from("（「『【〔〈《〖〘〚‘“([{"));
const isIdeographic = (code: number) =>
  (code >= 0x2e80 && code <= 0x9fff && !(code >= 0x3130 && code <= 0x318f)) ||
  (code >= 0xf900 && code <= 0xfaff) ||
  (code >= 0xff00 && code <= 0xffef) ||
  (code >= 0x20000 && code <= 0x3ffff);

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * Pieces of a paragraph that a line may end after: a word with the spaces after it, or a single
 * Chinese or Japanese character (they break between characters, except before closing punctuation
 * and after opening punctuation). Korean breaks at spaces, as it is written.
 */
function breakPieces(text: string): string[] {
  const pieces: string[] = [];
  let current = "";
  let previous = "";
  for (const { segment } of graphemes.segment(text)) {
    const code = segment.codePointAt(0)!;
    const space = segment === " ";
    const breakBefore =
      current !== "" &&
      ((!space && previous === " ") ||
        ((isIdeographic(code) || isIdeographic(previous.codePointAt(0) ?? 0)) &&
          !CLOSING.has(segment) &&
          !OPENING.has(previous) &&
          previous !== " " &&
          !space));
    if (breakBefore) {
      pieces.push(current);
      current = "";
    }
    current += segment;
    previous = segment;
  }
  if (current) pieces.push(current);
  return pieces;
}

/**
 * `text` wrapped to `width` points; paragraphs (at line breaks) each start a new line. A right-to-left
 * paragraph's continuation lines start with a right-to-left mark so each line, drawn alone, keeps the
 * paragraph's direction (and a left-to-right paragraph's with a left-to-right mark).
 */
export function wrapText(text: string, width: number, host: LayoutHost, size: number, bold: boolean): string[] {
  const out: string[] = [];
  const measure = (value: string) => measureLine(value, host, size, bold);
  for (const paragraph of text.split("\n")) {
    const rtl = (bidi().getEmbeddingLevels(paragraph).paragraphs[0]?.level ?? 0) === 1;
    const mark = rtl ? "\u200f" : "\u200e";
    const lines: string[] = [];
    let line = "";
    const push = (value: string) => lines.push(value.trimEnd());
    for (const piece of breakPieces(paragraph)) {
      if (line !== "" && measure((line + piece).trimEnd()) <= width) {
        line += piece;
        continue;
      }
      if (line !== "") push(line);
      line = piece;
      if (measure(line.trimEnd()) <= width) continue;
      // A piece wider than the line (a long word, a run of characters without a break): cut it between characters.
      const segments = Array.from(graphemes.segment(line), ({ segment }) => segment);
      line = "";
      for (const segment of segments) {
        if (line !== "" && measure((line + segment).trimEnd()) > width) {
          push(line);
          line = "";
        }
        line += segment;
      }
    }
    if (line.trim() !== "" || lines.length === 0) push(line);
    lines.forEach((value, index) => {
      out.push(index === 0 || !needsMark(value, rtl) ? value : `${mark}${value}`);
    });
  }
  return out;
}

/** Whether a continuation line drawn alone would take another direction than its paragraph. */
function needsMark(line: string, rtl: boolean): boolean {
  const level = bidi().getEmbeddingLevels(line).paragraphs[0]?.level ?? 0;
  return (level === 1) !== rtl;
}

/** The TJ operands for shaped glyphs: each glyph's CID, with adjustments where HarfBuzz moves it from its advance (kerning, marks). */
export function glyphOperators(face: ScriptFace, glyphs: readonly PlacedGlyph[], cid: (glyph: PlacedGlyph) => number, size: number): string {
  const scale = 1000 / face.unitsPerEm;
  let target = 0;
  let actual = 0;
  let rise = 0;
  let parts: string[] = [];
  const out: string[] = [];
  const flush = () => {
    if (parts.length) out.push(`[${parts.join("")}] TJ`);
    parts = [];
  };
  for (const glyph of glyphs) {
    const want = target + glyph.xOffset * scale;
    const shift = want - actual;
    if (Math.abs(shift) >= 0.001) {
      parts.push(` ${number(-shift)} `);
      actual += Number(number(shift));
    }
    const glyphRise = (glyph.yOffset * scale * size) / 1000;
    if (Math.abs(glyphRise - rise) >= 0.001) {
      flush();
      rise = glyphRise;
      out.push(`${number(rise)} Ts`);
    }
    parts.push(`<${cid(glyph).toString(16).padStart(4, "0")}>`);
    actual += face.width(glyph.gid);
    target += glyph.advance * scale;
  }
  flush();
  if (rise !== 0) out.push("0 Ts");
  return out.join("\n");
}
