import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { deflateSync } from "node:zlib";
import { type PutFontArgs, putFontStreams, toUnicodeCmapOf, writeType0Font } from "./embedded-font.server.ts";
import { HbFont, type ShapedGlyph } from "./harfbuzz.server.ts";

/**
 * The fonts for what Noto Sans does not draw: Hebrew, Arabic, Chinese, Japanese, Korean and emoji,
 * each a Noto family from an npm package, read and parsed the first time a report needs it
 * (never for a Latin-only report) and kept for the life of the process, like Noto Sans.
 *
 * Text in these fonts is shaped by HarfBuzz, so a document refers to glyphs, not characters. Each
 * document numbers the glyphs it draws from 1 (0 is .notdef) and embeds a TrueType font of just
 * those glyphs under those numbers (CID = glyph id, Identity-H), with a ToUnicode entry that gives
 * each glyph the text it stands for: a ligature its letters, Arabic contextual forms their base
 * letter. A glyph that stands for two different texts (rare) is embedded twice.
 */

// ---------------------------------------------------------------------------------------------
// The families, where they come from, and which characters go to which.

export type ScriptFamily = "hebrew" | "arabic" | "sc" | "jp" | "kr" | "emoji";
export type FaceStyle = "normal" | "bold";

const FAMILIES: Record<ScriptFamily, { name: string; files: Record<FaceStyle, string> }> = {
  hebrew: {
    name: "NotoSansHebrew",
    files: {
      normal: "@expo-google-fonts/noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf",
      bold: "@expo-google-fonts/noto-sans-hebrew/700Bold/NotoSansHebrew_700Bold.ttf",
    },
  },
  arabic: {
    name: "NotoSansArabic",
    files: {
      normal: "@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf",
      bold: "@expo-google-fonts/noto-sans-arabic/700Bold/NotoSansArabic_700Bold.ttf",
    },
  },
  sc: {
    name: "NotoSansSC",
    files: {
      normal: "@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf",
      bold: "@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf",
    },
  },
  jp: {
    name: "NotoSansJP",
    files: {
      normal: "@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf",
      bold: "@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf",
    },
  },
  kr: {
    name: "NotoSansKR",
    files: {
      normal: "@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf",
      bold: "@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf",
    },
  },
  emoji: {
    name: "NotoEmoji",
    files: {
      normal: "@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf",
      bold: "@expo-google-fonts/noto-emoji/700Bold/NotoEmoji_700Bold.ttf",
    },
  },
};

const inRanges = (code: number, ranges: readonly (readonly [number, number])[]) => ranges.some(([low, high]) => code >= low && code <= high);

const HEBREW: readonly (readonly [number, number])[] = [
  [0x0590, 0x05ff],
  [0xfb1d, 0xfb4f],
];
const ARABIC: readonly (readonly [number, number])[] = [
  [0x0600, 0x06ff],
  [0x0750, 0x077f],
  [0x0870, 0x08ff],
  [0xfb50, 0xfdff],
  [0xfe70, 0xfeff],
];
const CJK: readonly (readonly [number, number])[] = [
  [0x1100, 0x11ff],
  [0x2e80, 0x2fdf],
  [0x2ff0, 0x9fff],
  [0xa960, 0xa97f],
  [0xac00, 0xd7ff],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe1f],
  [0xfe30, 0xfe4f],
  [0xff00, 0xffef],
  [0x20000, 0x3ffff],
];
const HANGUL: readonly (readonly [number, number])[] = [
  [0x1100, 0x11ff],
  [0x3130, 0x318f],
  [0xa960, 0xa97f],
  [0xac00, 0xd7ff],
];
const KANA: readonly (readonly [number, number])[] = [
  [0x3040, 0x30ff],
  [0x31f0, 0x31ff],
  [0xff66, 0xff9f],
];

/** Right-to-left scripts' blocks: text with none of them (and only Noto Sans' characters) needs no bidi. */
export const isRightToLeft = (code: number) =>
  inRanges(code, HEBREW) || inRanges(code, ARABIC) || (code >= 0x10800 && code <= 0x10fff) || (code >= 0x1e800 && code <= 0x1efff);

/** Which CJK family draws Han characters: Japanese forms when there is kana, Korean when Hangul, else Simplified Chinese. */
export type CjkPreference = "sc" | "jp" | "kr";

export function cjkPreferenceOf(text: string): CjkPreference | null {
  let hangul = false;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (inRanges(code, KANA)) return "jp";
    if (inRanges(code, HANGUL)) hangul = true;
  }
  return hangul ? "kr" : null;
}

const CJK_ORDER: Record<CjkPreference, readonly ScriptFamily[]> = { sc: ["sc", "jp", "kr"], jp: ["jp", "sc", "kr"], kr: ["kr", "sc", "jp"] };

/** The families to try for a character Noto Sans lacks, in order (loading none of them). */
export function candidateFamilies(code: number, cjk: CjkPreference): readonly ScriptFamily[] {
  if (inRanges(code, HEBREW)) return ["hebrew"];
  if (inRanges(code, ARABIC)) return ["arabic"];
  if (inRanges(code, HANGUL)) return ["kr"];
  if (inRanges(code, CJK)) return [...CJK_ORDER[cjk], "emoji"];
  return ["emoji"];
}

// ---------------------------------------------------------------------------------------------
// A face: the TrueType tables a subset needs, and HarfBuzz's view of it, read once per process.

const faceCache = new Map<string, ScriptFace>();

export function scriptFace(family: ScriptFamily, style: FaceStyle): ScriptFace {
  const key = `${family}-${style}`;
  let face = faceCache.get(key);
  if (!face) {
    const require = createRequire(import.meta.url);
    const bytes = new Uint8Array(readFileSync(require.resolve(FAMILIES[family].files[style])));
    face = new ScriptFace(`${FAMILIES[family].name}-${style === "bold" ? "Bold" : "Regular"}`, bytes);
    faceCache.set(key, face);
  }
  return face;
}

/** Compound glyph flags (TrueType `glyf`). */
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;
/** Instructions follow the last component. */
const WE_HAVE_INSTRUCTIONS = 0x0100;

/**
 * The components of the compound glyph whose data starts at `start` in `bytes`: each one's glyph id,
 * where that id sits, its flags and where the next component (or, after the last, the glyph's
 * instructions) starts. None for a simple glyph.
 */
export function compoundComponents(bytes: Uint8Array, start: number): { gid: number; at: number; flags: number; end: number }[] {
  if (((bytes[start]! << 8) | bytes[start + 1]!) !== 0xffff) return [];
  const out: { gid: number; at: number; flags: number; end: number }[] = [];
  let at = start + 10;
  for (;;) {
    const flags = (bytes[at]! << 8) | bytes[at + 1]!;
    let end = at + 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
    if (flags & WE_HAVE_A_TWO_BY_TWO) end += 8;
    else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) end += 4;
    else if (flags & WE_HAVE_A_SCALE) end += 2;
    out.push({ gid: (bytes[at + 2]! << 8) | bytes[at + 3]!, at: at + 2, flags, end });
    if (!(flags & MORE_COMPONENTS)) return out;
    at = end;
  }
}

/** Sum of the big-endian 32-bit words of `bytes` (zero-padded to 4), modulo 2^32: the TrueType table checksum. */
function checksum(bytes: Uint8Array): number {
  let sum = 0;
  let i = 0;
  for (; i + 3 < bytes.length; i += 4) {
    sum = (sum + ((bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!)) >>> 0;
  }
  if (i < bytes.length) {
    let word = 0;
    for (let shift = 24; i < bytes.length; i++, shift -= 8) word |= bytes[i]! << shift;
    sum = (sum + (word >>> 0)) >>> 0;
  }
  return sum;
}

export class ScriptFace {
  readonly name: string;
  readonly hb: HbFont;
  readonly unitsPerEm: number;
  private readonly bytes: Uint8Array;
  private readonly view: DataView;
  private readonly tables: ReadonlyMap<string, { offset: number; length: number }>;
  private readonly locations: Uint32Array;
  private readonly advances: Uint16Array;
  readonly glyphCount: number;
  /** The font descriptor's values, in thousandths of an em. */
  readonly descriptor: { bbox: number[]; ascent: number; descent: number; capHeight: number; italicAngle: number };

  constructor(name: string, bytes: Uint8Array) {
    this.name = name;
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const view = this.view;
    const tables = new Map<string, { offset: number; length: number }>();
    for (let i = 0, count = view.getUint16(4); i < count; i++) {
      const at = 12 + 16 * i;
      tables.set(String.fromCharCode(...bytes.subarray(at, at + 4)), { offset: view.getUint32(at + 8), length: view.getUint32(at + 12) });
    }
    this.tables = tables;
    for (const tag of ["head", "hhea", "maxp", "hmtx", "loca", "glyf", "post"]) {
      if (!tables.has(tag)) throw new Error(`ScriptFace: ${name} has no ${tag} table.`);
    }
    const head = tables.get("head")!.offset;
    const hhea = tables.get("hhea")!.offset;
    this.unitsPerEm = view.getUint16(head + 18);
    this.glyphCount = view.getUint16(tables.get("maxp")!.offset + 4);
    const longLoca = view.getInt16(head + 50) === 1;
    const loca = tables.get("loca")!.offset;
    this.locations = new Uint32Array(this.glyphCount + 1);
    for (let i = 0; i <= this.glyphCount; i++) this.locations[i] = longLoca ? view.getUint32(loca + 4 * i) : view.getUint16(loca + 2 * i) * 2;
    const metrics = view.getUint16(hhea + 34);
    const hmtx = tables.get("hmtx")!.offset;
    this.advances = new Uint16Array(this.glyphCount);
    for (let i = 0; i < this.glyphCount; i++) this.advances[i] = view.getUint16(hmtx + 4 * Math.min(i, metrics - 1));

    const scale = (value: number) => Math.round((value * 1000) / this.unitsPerEm);
    const os2 = tables.get("OS/2");
    const ascent = os2 ? view.getInt16(os2.offset + 68) : view.getInt16(hhea + 4);
    const descent = os2 ? view.getInt16(os2.offset + 70) : view.getInt16(hhea + 6);
    const capHeight = os2 && view.getUint16(os2.offset) >= 2 ? view.getInt16(os2.offset + 88) : ascent;
    this.descriptor = {
      bbox: [view.getInt16(head + 36), view.getInt16(head + 38), view.getInt16(head + 40), view.getInt16(head + 42)].map(scale),
      ascent: scale(ascent),
      descent: scale(descent),
      capHeight: scale(capHeight),
      italicAngle: view.getInt32(tables.get("post")!.offset + 4) / 65536,
    };
    this.hb = new HbFont(bytes);
  }

  /** The advance of a glyph in font units. */
  advance(gid: number): number {
    return this.advances[gid] ?? 0;
  }

  /** The advance of a glyph in thousandths of an em, as the PDF's /W states it. */
  width(gid: number): number {
    return Math.round(((this.advances[gid] ?? 0) * 1000) / this.unitsPerEm);
  }

  /** The glyph's outline as stored (empty for a glyph without one). */
  glyph(gid: number): Uint8Array {
    if (!(gid >= 0 && gid < this.glyphCount)) return new Uint8Array(0);
    const glyf = this.tables.get("glyf")!.offset;
    return this.bytes.subarray(glyf + this.locations[gid]!, glyf + this.locations[gid + 1]!);
  }

  table(tag: string): Uint8Array {
    const table = this.tables.get(tag)!;
    return this.bytes.subarray(table.offset, table.offset + table.length);
  }
}

/** A glyph's data without hinting instructions (the subset carries no fpgm, prep or cvt for them). */
function withoutInstructions(data: Uint8Array): Uint8Array {
  if (data.length < 10) return data;
  const contours = (data[0]! << 8) | data[1]!;
  if (contours !== 0xffff) {
    const at = 10 + 2 * contours;
    const length = (data[at]! << 8) | data[at + 1]!;
    if (length === 0) return data;
    const out = new Uint8Array(data.length - length);
    out.set(data.subarray(0, at));
    out.set(data.subarray(at + 2 + length), at + 2);
    return out;
  }
  // A compound glyph: its instructions, if any, follow the last component.
  const last = compoundComponents(data, 0).at(-1)!;
  if (!(last.flags & WE_HAVE_INSTRUCTIONS)) return data;
  const out = data.slice(0, last.end);
  out[last.at - 2] = out[last.at - 2]! & ~(WE_HAVE_INSTRUCTIONS >> 8);
  return out;
}

// ---------------------------------------------------------------------------------------------
// A face's use in one document.

/** What jsPDF reads from a font entry's metadata while a text is written (a one-off marker text; see ScriptFontUse.markUsed). */
type JsPdfMetadata = {
  Unicode: { widths: unknown[]; encoding: Record<string, unknown>; kerning: Record<string, unknown> };
  glyIdsUsed: number[];
  toUnicode: Record<number, number>;
  characterToGlyph(code: number): number;
  widthOfGlyph(gid: number): number;
};

export class ScriptFontUse {
  readonly face: ScriptFace;
  /** jsPDF's font key (F3, F4…) once registered in the document. */
  fontKey = "";
  marked = false;
  /** The glyph (in the face) and text of each CID; CID 0 is .notdef. */
  private readonly glyphs: { gid: number; text: string }[] = [{ gid: 0, text: "" }];
  private readonly cids = new Map<string, number>();
  readonly metadata: JsPdfMetadata = {
    Unicode: { widths: [], encoding: {}, kerning: {} },
    glyIdsUsed: [],
    toUnicode: {},
    characterToGlyph: () => 0,
    widthOfGlyph: () => 0,
  };

  constructor(face: ScriptFace) {
    this.face = face;
  }

  /** The CID that draws `gid` and stands for `text` in this document. */
  cid(gid: number, text: string): number {
    const key = `${gid}\u0000${text}`;
    let cid = this.cids.get(key);
    if (cid === undefined) {
      cid = this.glyphs.length;
      if (cid > 0xffff) throw new Error("ScriptFontUse: more than 65,535 glyphs in one font.");
      this.glyphs.push({ gid, text });
      this.cids.set(key, cid);
    }
    return cid;
  }

  /** The TrueType program: the CIDs' glyphs in CID order, then the glyphs compound ones are built from. */
  fontProgram(): Uint8Array {
    const face = this.face;
    const order = this.glyphs.map((glyph) => glyph.gid);
    const slots = new Map<number, number>();
    order.forEach((gid, index) => {
      if (!slots.has(gid)) slots.set(gid, index);
    });
    const data: Uint8Array[] = [];
    for (let index = 0; index < order.length; index++) {
      const glyph = withoutInstructions(face.glyph(order[index]!));
      const components = compoundComponents(glyph, 0);
      if (components.length === 0) {
        data.push(glyph);
        continue;
      }
      const copy = glyph.slice();
      for (const { gid, at } of components) {
        let slot = slots.get(gid);
        if (slot === undefined) {
          slot = order.length;
          order.push(gid);
          slots.set(gid, slot);
        }
        copy[at] = slot >> 8;
        copy[at + 1] = slot & 0xff;
      }
      data.push(copy);
    }
    const count = order.length;

    const glyfLength = data.reduce((sum, glyph) => sum + padded(glyph.length), 0);
    const glyf = new Uint8Array(glyfLength);
    const loca = new Uint8Array(4 * (count + 1));
    const locaView = new DataView(loca.buffer);
    const hmtx = new Uint8Array(4 * count);
    const hmtxView = new DataView(hmtx.buffer);
    let at = 0;
    data.forEach((glyph, index) => {
      locaView.setUint32(4 * index, at);
      glyf.set(glyph, at);
      at += padded(glyph.length);
      const gid = order[index]!;
      hmtxView.setUint16(4 * index, face.advance(gid));
      // The left side bearing is the glyph's xMin.
      hmtxView.setInt16(4 * index + 2, glyph.length >= 10 ? (((glyph[2]! << 8) | glyph[3]!) << 16) >> 16 : 0);
    });
    locaView.setUint32(4 * count, at);

    const head = face.table("head").slice(0, 54);
    const headView = new DataView(head.buffer);
    headView.setUint32(8, 0);
    headView.setInt16(50, 1);
    const hhea = face.table("hhea").slice(0, 36);
    new DataView(hhea.buffer).setUint16(34, count);
    const maxp = face.table("maxp").slice();
    new DataView(maxp.buffer).setUint16(4, count);
    const post = face.table("post").slice(0, 32);
    new DataView(post.buffer).setUint32(0, 0x00030000);

    const tables: [string, Uint8Array][] = [
      ["glyf", glyf],
      ["head", head],
      ["hhea", hhea],
      ["hmtx", hmtx],
      ["loca", loca],
      ["maxp", maxp],
      ["post", post],
    ];
    return assembleTrueType(tables);
  }

  /** The /W array: each CID's advance. */
  widths(): string {
    const parts = this.glyphs.map((glyph, cid) => `${cid} [${number(this.face.width(glyph.gid))}]`);
    return `[${parts.join(" ")}]`;
  }

  /** The ToUnicode CMap: each CID's text in UTF-16BE (none for a glyph that stands for no text of its own). */
  toUnicode(): string {
    return toUnicodeCmapOf(this.glyphs.flatMap((glyph, cid) => (glyph.text ? [`<${hex4(cid)}><${Array.from(glyph.text, utf16Hex).join("")}>`] : [])));
  }
}

const padded = (length: number) => (length + 3) & ~3;
const hex4 = (value: number) => value.toString(16).padStart(4, "0");
const utf16Hex = (char: string) => Array.from({ length: char.length }, (_, i) => hex4(char.charCodeAt(i))).join("");

/** A number as the PDF writes it: at most three decimals, no trailing zeros. */
export function number(value: number): string {
  const fixed = value.toFixed(3);
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

/** A TrueType file of these tables (tags in ascending order), with checksums and head's adjustment. */
function assembleTrueType(tables: [string, Uint8Array][]): Uint8Array {
  const count = tables.length;
  let entrySelector = 0;
  while (2 ** (entrySelector + 1) <= count) entrySelector++;
  const searchRange = 2 ** entrySelector * 16;
  const headerLength = 12 + 16 * count;
  const size = tables.reduce((sum, [, bytes]) => sum + padded(bytes.length), headerLength);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x00010000);
  view.setUint16(4, count);
  view.setUint16(6, searchRange);
  view.setUint16(8, entrySelector);
  view.setUint16(10, count * 16 - searchRange);
  let at = headerLength;
  let headAt = -1;
  tables.forEach(([tag, bytes], index) => {
    const entry = 12 + 16 * index;
    for (let i = 0; i < 4; i++) out[entry + i] = tag.charCodeAt(i);
    view.setUint32(entry + 4, checksum(bytes));
    view.setUint32(entry + 8, at);
    view.setUint32(entry + 12, bytes.length);
    out.set(bytes, at);
    if (tag === "head") headAt = at;
    at += padded(bytes.length);
  });
  view.setUint32(headAt + 8, (0xb1b0afba - checksum(out)) >>> 0);
  return out;
}

/** The PDF objects of a face's use: the font program, ToUnicode map, descriptor, CIDFont and Type0 font. */
export function putScriptFont(use: ScriptFontUse, args: PutFontArgs) {
  const program = use.fontProgram();
  const { fontFile, toUnicode } = putFontStreams(args, deflateSync(program), program.length, use.toUnicode());
  const { bbox, ascent, descent, capHeight, italicAngle } = use.face.descriptor;
  writeType0Font(args, {
    name: use.face.name,
    fontFile,
    toUnicode,
    bbox: `[${bbox.join(" ")}]`,
    flags: 4,
    stemV: 80,
    italicAngle,
    ascent,
    descent,
    capHeight,
    widths: use.widths(),
  });
}

export type { ShapedGlyph };

/** The faces this process has read so far ("arabic-normal", "sc-bold"…): none until a report needs one. */
export function loadedScriptFaces(): string[] {
  return [...faceCache.keys()];
}
