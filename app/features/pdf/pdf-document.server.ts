import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { jsPDF } from "jspdf";
import { parseHexColor, readableTextOnRgb, relativeLuminance } from "~/lib/color.ts";
import { addEmbeddedFonts, EmbeddedFont } from "./embedded-font.server.ts";
import { type CjkPreference, number, putScriptFont, type ScriptFace, ScriptFontUse } from "./script-fonts.server.ts";
import { drawLine, glyphOperators, type LayoutHost, measureLine, needsLayout, type PlacedGlyph, wrapText } from "./text-layout.server.ts";

/**
 * The page every report PDF is drawn on: A4 in points, the palette, the embedded Noto Sans (read
 * and parsed once per process), text made safe for the font, and \`Pdf\`, a jsPDF document that
 * keeps track of its text state and of where the next line goes.
 */

// ---------------------------------------------------------------------------------------------
// Fonts: read from node_modules at run time (the server bundle keeps node_modules external) and
// parsed once per process; every document shares the parse and embeds only the glyphs it draws.

const FONT_PACKAGE = "@expo-google-fonts/noto-sans";
const FONT_FAMILY = "NotoSans";
const FONT_FILES = {
  normal: "400Regular/NotoSans_400Regular.ttf",
  bold: "700Bold/NotoSans_700Bold.ttf",
} as const;
type FontStyle = keyof typeof FONT_FILES;

type Fonts = { faces: Readonly<Record<FontStyle, EmbeddedFont>>; supported: ReadonlySet<number> };
let fontCache: Fonts | undefined;

/** The parsed fonts, and the code points they draw (both weights cover the same set), loaded once per process. */
export function fonts(): Fonts {
  if (!fontCache) {
    const require = createRequire(import.meta.url);
    const load = (file: string) => new EmbeddedFont(new Uint8Array(readFileSync(require.resolve(`${FONT_PACKAGE}/${file}`))));
    const faces = Object.freeze({ normal: load(FONT_FILES.normal), bold: load(FONT_FILES.bold) });
    fontCache = { faces, supported: faces.normal.coverage };
  }
  return fontCache;
}

// ---------------------------------------------------------------------------------------------
// Page geometry (points) and palette.

export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;
export const MARGIN = 50;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
export const CONTINUATION_TOP = 66;
export const CONTENT_BOTTOM = PAGE_HEIGHT - 60;

export type Rgb = readonly [number, number, number];
export const INK: Rgb = [31, 41, 51];
export const BODY: Rgb = [62, 76, 89];
export const MUTED: Rgb = [110, 122, 135];
export const FAINT: Rgb = [154, 165, 177];
export const RULE: Rgb = [217, 226, 236];
export const PANEL: Rgb = [245, 247, 250];
export const ACCENT: Rgb = [36, 59, 83];
export const ANSWER_BAR: Rgb = [188, 204, 220];
export const TRACK: Rgb = [228, 231, 235];
export const WHITE: Rgb = [255, 255, 255];
export const BLACK: Rgb = [17, 17, 17];
export const NEUTRAL_BAND: Rgb = [154, 165, 177];

/** `#RRGGBB` (or `#RGB`) to RGB; anything else draws in neutral grey. */
export const parseColor = (value: string | null | undefined): Rgb => parseHexColor(value?.trim()) ?? NEUTRAL_BAND;

/** WCAG relative luminance, 0 (black) to 1 (white). */
export const luminance = (color: Rgb): number => relativeLuminance([color[0], color[1], color[2]]);

/** Black or white, whichever contrasts more with the background. */
export const textColorOn = (background: Rgb): Rgb => (readableTextOnRgb([background[0], background[1], background[2]]) === "dark" ? BLACK : WHITE);

// ---------------------------------------------------------------------------------------------
// Text hygiene: composed accents, no control characters. Characters Noto Sans lacks stay: they are
// drawn in the script fonts (text-layout.server.ts), or as a visible U+FFFD when no font has them.

export function clean(value: string): string {
  return value
    .normalize("NFC")
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(/\t/g, "    ")
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b\u200e\u200f\ufeff]/g, "");
}

export function oneLine(value: string): string {
  return clean(value).replace(/\s+/g, " ").trim();
}

export type TextStyle = { size: number; bold?: boolean; color?: Rgb };

export class Pdf {
  readonly doc: jsPDF;
  readonly fonts: ReturnType<typeof addEmbeddedFonts>;
  y = 0;
  /** The CJK family for Han characters in text without kana or Hangul of its own (set from the whole report). */
  cjk: CjkPreference = "sc";
  /** The script fonts this document draws with, added on first use. */
  private readonly scriptFonts = new Map<ScriptFace, ScriptFontUse>();

  constructor() {
    this.doc = new jsPDF({ orientation: "portrait", unit: "pt", format: "a4", compress: true, putOnlyUsedFonts: true });
    this.fonts = addEmbeddedFonts(this.doc, FONT_FAMILY, fonts().faces);
    this.doc.setLineHeightFactor(1.3);
  }

  /** The text state last set on the document (jsPDF keeps it until changed and writes it with each text). */
  private current: { bold: boolean; size: number; color: Rgb } | null = null;

  style({ size, bold = false, color = INK }: TextStyle): this {
    const current = this.current;
    if (current?.bold !== bold) this.doc.setFont(FONT_FAMILY, bold ? "bold" : "normal");
    if (current?.size !== size) this.doc.setFontSize(size);
    if (!current || current.color[0] !== color[0] || current.color[1] !== color[1] || current.color[2] !== color[2]) {
      this.doc.setTextColor(color[0], color[1], color[2]);
    }
    this.current = { bold, size, color };
    return this;
  }

  /** The layout's view of this document, drawing in `color`. */
  private host(color: Rgb = INK): LayoutHost {
    return {
      baseSupported: fonts().supported,
      cjk: this.cjk,
      baseWidth: (text, size, bold) => {
        this.style({ size, bold, color });
        return this.doc.getTextWidth(text);
      },
      drawBase: (text, x, y, size, bold) => {
        this.style({ size, bold, color });
        this.doc.text(text, x, y, { baseline: "alphabetic" });
      },
      drawGlyphs: (face, glyphs, x, y, size) => this.drawGlyphs(face, glyphs, x, y, size, color),
    };
  }

  /** The script font's use in this document, added to it (and to its pages' resources) the first time. */
  private scriptFont(face: ScriptFace): ScriptFontUse {
    let use = this.scriptFonts.get(face);
    if (!use) {
      const created = new ScriptFontUse(face);
      use = created;
      created.fontKey = this.fonts.add(face.name, "normal", created.metadata, (args) => putScriptFont(created, args));
      // jsPDF lists a font in the pages' resources once a text has used it: an empty one (no glyph) does.
      this.doc.setFont(face.name, "normal");
      this.doc.text("\u0001", 0, 0);
      this.current = null;
      this.scriptFonts.set(face, created);
    }
    return use;
  }

  private drawGlyphs(face: ScriptFace, glyphs: readonly PlacedGlyph[], x: number, y: number, size: number, color: Rgb) {
    const use = this.scriptFont(face);
    const operators = glyphOperators(face, glyphs, (glyph) => use.cid(glyph.gid, glyph.text), size);
    const rgb = color.map((value) => number(value / 255)).join(" ");
    const baseline = this.doc.internal.pageSize.getHeight() - y;
    (this.doc.internal as unknown as { write(content: string): void }).write(
      `BT\n/${use.fontKey} ${number(size)} Tf\n${rgb} rg\n${number(x)} ${number(baseline)} Td\n${operators}\nET`,
    );
  }

  width(text: string, style: TextStyle): number {
    if (needsLayout(text, fonts().supported)) return measureLine(text, this.host(style.color), style.size, style.bold ?? false);
    this.style(style);
    return this.doc.getTextWidth(text);
  }

  /** Wrapped lines of `text` within `width` in the given style; an empty text gives no line. */
  lines(text: string, width: number, style: TextStyle): string[] {
    const value = clean(text).trim();
    if (!value) return [];
    if (needsLayout(value, fonts().supported)) return wrapText(value, width, this.host(style.color), style.size, style.bold ?? false);
    this.style(style);
    return (this.doc.splitTextToSize(value, width) as string[]).map((line) => line.trimEnd());
  }

  /** One line cut with an ellipsis to fit `width`. */
  fit(text: string, width: number, style: TextStyle): string {
    const value = oneLine(text);
    if (this.width(value, style) <= width) return value;
    const chars = Array.from(new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(value), ({ segment }) => segment);
    let low = 0;
    let high = chars.length;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (this.width(`${chars.slice(0, mid).join("").trimEnd()}…`, style) <= width) low = mid;
      else high = mid - 1;
    }
    return `${chars.slice(0, low).join("").trimEnd()}…`;
  }

  text(text: string | string[], x: number, y: number, style: TextStyle, align: "left" | "right" | "center" = "left", lineHeight?: number) {
    const lines = Array.isArray(text) ? text : [text];
    lines.forEach((line, index) => {
      const baseline = y + index * (lineHeight ?? style.size * 1.3);
      if (needsLayout(line, fonts().supported)) {
        drawLine(line, x, baseline, this.host(style.color), style.size, style.bold ?? false, align);
        return;
      }
      this.style(style);
      this.doc.text(line, x, baseline, { align, baseline: "alphabetic" });
    });
  }

  fill(color: Rgb) {
    this.doc.setFillColor(color[0], color[1], color[2]);
  }

  stroke(color: Rgb, width: number) {
    this.doc.setDrawColor(color[0], color[1], color[2]);
    this.doc.setLineWidth(width);
  }

  rule(y: number, color: Rgb = RULE, width = 0.6, x1 = MARGIN, x2 = PAGE_WIDTH - MARGIN) {
    this.stroke(color, width);
    this.doc.line(x1, y, x2, y);
  }

  newPage() {
    this.doc.addPage("a4", "portrait");
    this.y = CONTINUATION_TOP;
  }

  /** Starts a new page unless `height` more points fit on this one. */
  ensure(height: number): boolean {
    if (this.y + height <= CONTENT_BOTTOM) return false;
    this.newPage();
    return true;
  }
}
