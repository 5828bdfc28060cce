import { constants, deflateRawSync } from "node:zlib";
import { jsPDF } from "jspdf";

/**
 * A TrueType font parsed once per process and embedded, subset, in any number of jsPDF documents.
 *
 * jsPDF's own path (`addFileToVFS` + `addFont` with Identity-H) costs a 600 KB binary-string copy and a
 * full TTF parse per document, then, when the document is written, a subsetter that builds the font
 * program byte by byte in plain arrays, a per-byte string concatenation and a pure-JS deflate of the
 * ~110 KB result. For a report that is most of the render time.
 *
 * Here the TTF is parsed once (with jsPDF's own parser, so metrics, glyph lookup and text handling are
 * unchanged); each document gets a small per-document view of it (its own used-glyph list, widths
 * and ToUnicode map, nothing else is written to). When the document is written, the font program is
 * rebuilt from precomputed tables: the uncompressed TTF is byte for byte what jsPDF's subsetter
 * produces for the same glyphs (`subsetFontProgram`, checked against jsPDF in the tests), and the
 * PDF objects around it are the ones jsPDF writes. Only the stream compression differs: native zlib,
 * with the tables that never change (cmap, hmtx, hhea, maxp, post, name) deflated once per process.
 *
 * Everything cached is fixed at load and read-only afterwards, so it is shared safely by concurrent
 * requests and does not grow with the number of documents.
 */

// ---------------------------------------------------------------------------------------------
// The parts of jsPDF's TTF parser (jsPDF.API.TTFFont) this module relies on.

type TtfTable = { exists: boolean; offset: number; length: number; raw(): number[] | null };
type ParsedTtf = {
  directory: { scalarType: number; tables: Record<string, { offset: number; length: number } | undefined> };
  head: TtfTable & { encode(indexToLocFormat: number): number[] };
  loca: TtfTable & { offsets: number[] };
  glyf: TtfTable;
  cmap: TtfTable & { unicode?: { codeMap?: Record<string, number> } };
  hmtx: TtfTable;
  hhea: TtfTable;
  maxp: TtfTable;
  post: TtfTable;
  name: TtfTable;
  os2: TtfTable;
  bbox: number[];
  flags: number;
  stemV: number;
  italicAngle: number;
  ascender: number;
  decender: number;
  capHeight: number;
  characterToGlyph(code: number): number;
};
type TtfFontClass = { open(data: Uint8Array): ParsedTtf; prototype: object };
type JsPdfApi = { TTFFont: TtfFontClass; PDFObject: { convert(value: unknown): string } };
const api = (jsPDF as unknown as { API: JsPdfApi }).API;

/** The per-document font view jsPDF reads and writes while text is drawn (see `pdfEscape16`). */
type DocumentFontMetadata = ParsedTtf & {
  Unicode: { encoding: Record<string, unknown>; kerning: Record<string, unknown>; widths: (number | number[])[] };
  glyIdsUsed: number[];
  toUnicode: Record<number, number>;
};

type FontEntry = {
  id: string;
  fontName: string;
  postScriptName: string;
  encoding: string;
  metadata: unknown;
  objectNumber?: number;
  isAlreadyPutted?: boolean;
};
export type PutFontArgs = {
  font: FontEntry;
  out: (line: string) => void;
  newObject: () => number;
  putStream: (options: {
    data: string;
    filters?: string[];
    alreadyAppliedFilters?: string[];
    additionalKeyValues?: { key: string; value: string | number }[];
    addLength1?: boolean;
    objectId: number;
  }) => void;
};

// ---------------------------------------------------------------------------------------------
// Byte helpers.

const SYNC = { level: 6, finishFlush: constants.Z_SYNC_FLUSH } as const;

/** Sum of the big-endian 32-bit words of `bytes` (zero-padded to 4), modulo 2^32: the TrueType table checksum. */
export function checksum(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let sum = 0;
  let i = start;
  for (; i + 3 < end; i += 4) {
    sum = (sum + ((bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!)) >>> 0;
  }
  if (i < end) {
    let word = 0;
    for (let shift = 24; i < end; i++, shift -= 8) word |= bytes[i]! << shift;
    sum = (sum + (word >>> 0)) >>> 0;
  }
  return sum;
}

const ADLER_BASE = 65521;

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < bytes.length; ) {
    // 5552 bytes is the most zlib sums before b could overflow 32 bits; the same bound keeps it exact here.
    const end = Math.min(i + 5552, bytes.length);
    for (; i < end; i++) {
      a += bytes[i]!;
      b += a;
    }
    a %= ADLER_BASE;
    b %= ADLER_BASE;
  }
  return ((b << 16) | a) >>> 0;
}

/** The Adler-32 of two pieces joined, from theirs (zlib's adler32_combine). */
function adler32Combine(first: number, second: number, secondLength: number): number {
  const rem = secondLength % ADLER_BASE;
  let sum1 = first & 0xffff;
  let sum2 = (rem * sum1) % ADLER_BASE;
  sum1 += (second & 0xffff) + ADLER_BASE - 1;
  sum2 += ((first >>> 16) & 0xffff) + ((second >>> 16) & 0xffff) + ADLER_BASE - rem;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= ADLER_BASE * 2) sum2 -= ADLER_BASE * 2;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

/** zlib header: deflate, 32 KB window, default compression. */
const ZLIB_HEADER = Buffer.from([0x78, 0x9c]);

/** `bytes` as deflate stored blocks (up to 65,535 bytes each), starting on a byte boundary. */
function storedBlock(bytes: Uint8Array, final: boolean): Buffer {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length || parts.length === 0; at += 0xffff) {
    const chunk = bytes.subarray(at, at + 0xffff);
    const last = at + 0xffff >= bytes.length;
    const header = Buffer.alloc(5);
    header[0] = final && last ? 1 : 0;
    header.writeUInt16LE(chunk.length, 1);
    header.writeUInt16LE(~chunk.length & 0xffff, 3);
    parts.push(header, chunk);
  }
  return Buffer.concat(parts);
}

function writeUint32(bytes: Uint8Array, at: number, value: number) {
  bytes[at] = (value >>> 24) & 0xff;
  bytes[at + 1] = (value >>> 16) & 0xff;
  bytes[at + 2] = (value >>> 8) & 0xff;
  bytes[at + 3] = value & 0xff;
}

function writeUint16(bytes: Uint8Array, at: number, value: number) {
  bytes[at] = (value >> 8) & 0xff;
  bytes[at + 1] = value & 0xff;
}

const padded = (length: number) => (length + 3) & ~3;

// ---------------------------------------------------------------------------------------------
// The font.

type ConstantTable = { tag: string; bytes: Uint8Array; checksum: number };

/** Compound glyph flags (TrueType `glyf`), as jsPDF's CompoundGlyph reads them. */
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;

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

export class EmbeddedFont {
  /** Unicode code points with a glyph other than .notdef. */
  readonly coverage: ReadonlySet<number>;
  /** The parsed font, shared by every document; never written to after load. */
  private readonly parsed: ParsedTtf;
  private readonly file: Uint8Array;
  private readonly glyfOffset: number;
  /** `loca` as jsPDF reads it: the start of glyph i in `glyf` is locations[i], its end locations[i + 1]. */
  private readonly locations: Uint32Array;
  private readonly glyphCount: number;
  /** The glyphs a compound glyph is built from, for the compound glyphs only. */
  private readonly components: ReadonlyMap<number, readonly number[]>;
  /** The TTF tables in jsPDF's subset order; glyf and loca (null here) are built per document. */
  private readonly layout: readonly (ConstantTable | null)[];
  private readonly tags: readonly string[];
  /** cmap and hmtx…name, deflated once, each ending on a byte boundary without closing the stream. */
  private readonly cmapDeflated: Buffer;
  private readonly middleDeflated: Buffer;
  private readonly cmapAdler: number;
  private readonly middleAdler: number;

  constructor(file: Uint8Array) {
    this.file = file;
    const parsed = api.TTFFont.open(file);
    this.parsed = parsed;
    const codeMap = parsed.cmap.unicode?.codeMap ?? {};
    this.coverage = new Set(
      Object.entries(codeMap)
        .filter(([, glyph]) => glyph > 0)
        .map(([code]) => Number(code)),
    );

    for (const table of [parsed.glyf, parsed.loca, parsed.cmap, parsed.hmtx, parsed.hhea, parsed.maxp, parsed.post, parsed.name, parsed.head]) {
      if (!table.exists) throw new Error("EmbeddedFont: the TTF lacks a table jsPDF's subsetter needs.");
    }
    this.glyfOffset = parsed.glyf.offset;
    this.locations = Uint32Array.from(parsed.loca.offsets);
    this.glyphCount = this.locations.length - 1;

    const components = new Map<number, number[]>();
    for (let id = 0; id < this.glyphCount; id++) {
      const start = this.glyfOffset + this.locations[id]!;
      if (this.locations[id + 1]! - this.locations[id]! <= 0) continue;
      const ids = compoundComponents(file, start).map((component) => component.gid);
      if (ids.length === 0) continue;
      components.set(id, ids);
    }
    this.components = components;

    const constant = (tag: string, data: number[]): ConstantTable => {
      const bytes = Uint8Array.from(data);
      return { tag, bytes, checksum: checksum(bytes) };
    };
    const raw = (tag: string, table: TtfTable) => constant(tag, table.raw()!);
    this.layout = [
      raw("cmap", parsed.cmap),
      null,
      null,
      raw("hmtx", parsed.hmtx),
      raw("hhea", parsed.hhea),
      raw("maxp", parsed.maxp),
      raw("post", parsed.post),
      raw("name", parsed.name),
      constant("head", parsed.head.encode(1)),
      ...(parsed.os2.exists ? [raw("OS/2", parsed.os2)] : []),
    ];
    this.tags = ["cmap", "glyf", "loca", ...this.layout.slice(3).map((table) => table!.tag)];

    const concat = (tables: readonly (ConstantTable | null)[]) => {
      const out = new Uint8Array(tables.reduce((sum, table) => sum + padded(table!.bytes.length), 0));
      let at = 0;
      for (const table of tables) {
        out.set(table!.bytes, at);
        at += padded(table!.bytes.length);
      }
      return out;
    };
    const cmap = concat(this.layout.slice(0, 1));
    const middle = concat(this.layout.slice(3, 8));
    this.cmapDeflated = deflateRawSync(cmap, SYNC);
    this.middleDeflated = deflateRawSync(middle, SYNC);
    this.cmapAdler = adler32(cmap);
    this.middleAdler = adler32(middle);
  }

  /** Per-document metadata for jsPDF's font entry: the shared parse plus the state jsPDF writes while drawing text. */
  documentMetadata(): DocumentFontMetadata {
    const metadata = Object.assign(Object.create(api.TTFFont.prototype) as object, this.parsed, {
      Unicode: { encoding: {}, kerning: {}, widths: new GlyphWidths() },
      glyIdsUsed: [0],
      toUnicode: {},
    }) as DocumentFontMetadata;
    return metadata;
  }

  /**
   * The subset TTF for these glyph ids (with the glyphs compound glyphs are built from): byte for byte
   * what jsPDF's `TTFFont.subset.encode(glyphIds, 1)` returns. Glyph ids keep their numbers (the PDF
   * maps CIDs to glyphs one to one), `loca` keeps one entry per glyph of the full font, and the
   * glyphs not used are empty. Glyph 0 (.notdef) is always included, as it is in every jsPDF document.
   */
  subsetFontProgram(glyphIds: Iterable<number>): { bytes: Uint8Array; ranges: { cmap: [number, number]; middle: [number, number] } } {
    const used = new Uint8Array(this.glyphCount);
    const pending: number[] = [0];
    for (const id of glyphIds) pending.push(id);
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (!(id >= 0 && id < this.glyphCount) || used[id]) continue;
      used[id] = 1;
      const parts = this.components.get(id);
      if (parts) pending.push(...parts);
    }

    let glyfLength = 0;
    for (let id = 0; id < this.glyphCount; id++) {
      if (used[id]) glyfLength += Math.max(this.locations[id + 1]! - this.locations[id]!, 0);
    }
    const locaLength = this.locations.length * 4;
    const lengths = this.layout.map((table, index) => (index === 1 ? glyfLength : index === 2 ? locaLength : table!.bytes.length));
    const tableCount = lengths.length;
    const headerLength = 12 + 16 * tableCount;
    const offsets: number[] = [];
    let size = headerLength;
    for (const length of lengths) {
      offsets.push(size);
      size += padded(length);
    }
    const bytes = new Uint8Array(size);

    // glyf: the used glyphs in id order; loca: where each glyph starts in it (long offsets).
    const glyfAt = offsets[1]!;
    const locaAt = offsets[2]!;
    let pointer = 0;
    for (let id = 0; id <= this.glyphCount; id++) {
      writeUint32(bytes, locaAt + 4 * id, pointer);
      if (id < this.glyphCount && used[id]) {
        const start = this.locations[id]!;
        const length = this.locations[id + 1]! - start;
        if (length > 0) {
          bytes.set(this.file.subarray(this.glyfOffset + start, this.glyfOffset + start + length), glyfAt + pointer);
          pointer += length;
        }
      }
    }
    this.layout.forEach((table, index) => {
      if (table) bytes.set(table.bytes, offsets[index]!);
    });

    // The table directory, with jsPDF's (non-standard but harmless) searchRange and entrySelector.
    const sums: number[] = [];
    const log2 = Math.log(2);
    const searchRange = Math.floor(Math.log(tableCount) / log2) * 16;
    const entrySelector = Math.floor(searchRange / log2);
    writeUint32(bytes, 0, this.parsed.directory.scalarType >>> 0);
    writeUint16(bytes, 4, tableCount);
    writeUint16(bytes, 6, searchRange);
    writeUint16(bytes, 8, entrySelector);
    writeUint16(bytes, 10, tableCount * 16 - searchRange);
    this.tags.forEach((tag, index) => {
      const at = 12 + 16 * index;
      for (let i = 0; i < 4; i++) bytes[at + i] = tag.charCodeAt(i);
      const table = this.layout[index];
      const sum = table ? table.checksum : checksum(bytes, offsets[index]!, offsets[index]! + lengths[index]!);
      sums.push(sum);
      writeUint32(bytes, at + 4, sum);
      writeUint32(bytes, at + 8, offsets[index]!);
      writeUint32(bytes, at + 12, lengths[index]!);
    });
    // The whole file's checksum is the directory's plus every (zero-padded, 4-aligned) table's.
    const total = sums.reduce((sum, value) => (sum + value) >>> 0, checksum(bytes, 0, headerLength));
    writeUint32(bytes, offsets[8]! + 8, (0xb1b0afba - (total | 0)) >>> 0);
    return { bytes, ranges: { cmap: [offsets[0]!, offsets[1]!], middle: [offsets[3]!, offsets[8]!] } };
  }

  /**
   * The subset TTF as a zlib stream (FlateDecode), and its uncompressed length. Deflate blocks that end
   * on a byte boundary concatenate into one stream: the tables that never change were deflated at load
   * (ending with a sync flush), glyf and loca are deflated here, and the table directory and head
   * (a few hundred bytes that differ per document) go in stored blocks.
   */
  deflatedFontProgram(glyphIds: Iterable<number>): { data: Buffer; length: number } {
    const { bytes, ranges } = this.subsetFontProgram(glyphIds);
    const [cmapStart, cmapEnd] = ranges.cmap;
    const [middleStart, middleEnd] = ranges.middle;
    const directory = bytes.subarray(0, cmapStart);
    const glyphs = bytes.subarray(cmapEnd, middleStart);
    const tail = bytes.subarray(middleEnd);
    let adler = adler32(directory);
    adler = adler32Combine(adler, this.cmapAdler, cmapEnd - cmapStart);
    adler = adler32Combine(adler, adler32(glyphs), glyphs.length);
    adler = adler32Combine(adler, this.middleAdler, middleEnd - middleStart);
    adler = adler32Combine(adler, adler32(tail), tail.length);
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32BE(adler);
    const data = Buffer.concat([
      ZLIB_HEADER,
      storedBlock(directory, false),
      this.cmapDeflated,
      deflateRawSync(glyphs, SYNC),
      this.middleDeflated,
      storedBlock(tail, true),
      trailer,
    ]);
    return { data, length: bytes.length };
  }

  /** The PDF objects jsPDF's Identity-H font plugin writes, with this font's program. */
  putFont({ font, out, newObject, putStream }: PutFontArgs, metadata: DocumentFontMetadata) {
    const convert = api.PDFObject.convert;
    const program = this.deflatedFontProgram(metadata.glyIdsUsed);
    const { fontFile, toUnicode } = putFontStreams({ out, newObject, putStream }, program.data, program.length, toUnicodeCmap(metadata.toUnicode));
    writeType0Font(
      { font, out, newObject },
      {
        name: toPdfName(font.fontName),
        fontFile,
        toUnicode,
        bbox: convert(metadata.bbox),
        flags: metadata.flags,
        stemV: metadata.stemV,
        italicAngle: metadata.italicAngle,
        ascent: metadata.ascender,
        descent: metadata.decender,
        capHeight: metadata.capHeight,
        widths: convert(metadata.Unicode.widths),
      },
    );
  }
}

/** The font program (already deflated; `length` uncompressed) and the ToUnicode map, as streams: their object numbers. */
export function putFontStreams(
  { out, newObject, putStream }: Pick<PutFontArgs, "out" | "newObject" | "putStream">,
  program: Uint8Array,
  length: number,
  cmap: string,
): { fontFile: number; toUnicode: number } {
  const fontFile = newObject();
  putStream({
    data: Buffer.from(program.buffer, program.byteOffset, program.byteLength).toString("latin1"),
    filters: [],
    alreadyAppliedFilters: ["/FlateDecode"],
    additionalKeyValues: [{ key: "Length1", value: length }],
    objectId: fontFile,
  });
  out("endobj");
  const toUnicode = newObject();
  putStream({ data: cmap, addLength1: true, objectId: toUnicode });
  out("endobj");
  return { fontFile, toUnicode };
}

/**
 * The font descriptor, CIDFont (CIDToGIDMap Identity) and Type0 font (Identity-H) around an embedded
 * TrueType program and ToUnicode map, as jsPDF's Identity-H font plugin writes them.
 */
export function writeType0Font(
  { font, out, newObject }: Pick<PutFontArgs, "font" | "out" | "newObject">,
  fields: {
    name: string;
    fontFile: number;
    toUnicode: number;
    bbox: string;
    flags: number;
    stemV: number;
    italicAngle: number;
    ascent: number;
    descent: number;
    capHeight: number;
    widths: string;
  },
) {
  const fontDescriptor = newObject();
  out("<<");
  out("/Type /FontDescriptor");
  out(`/FontName /${fields.name}`);
  out(`/FontFile2 ${fields.fontFile} 0 R`);
  out(`/FontBBox ${fields.bbox}`);
  out(`/Flags ${fields.flags}`);
  out(`/StemV ${fields.stemV}`);
  out(`/ItalicAngle ${fields.italicAngle}`);
  out(`/Ascent ${fields.ascent}`);
  out(`/Descent ${fields.descent}`);
  out(`/CapHeight ${fields.capHeight}`);
  out(">>");
  out("endobj");

  const descendantFont = newObject();
  out("<<");
  out("/Type /Font");
  out(`/BaseFont /${fields.name}`);
  out(`/FontDescriptor ${fontDescriptor} 0 R`);
  out(`/W ${fields.widths}`);
  out("/CIDToGIDMap /Identity");
  out("/DW 1000");
  out("/Subtype /CIDFontType2");
  out("/CIDSystemInfo");
  out("<<");
  out("/Supplement 0");
  out("/Registry (Adobe)");
  out(`/Ordering (${font.encoding})`);
  out(">>");
  out(">>");
  out("endobj");

  font.objectNumber = newObject();
  out("<<");
  out("/Type /Font");
  out("/Subtype /Type0");
  out(`/ToUnicode ${fields.toUnicode} 0 R`);
  out(`/BaseFont /${fields.name}`);
  out(`/Encoding /${font.encoding}`);
  out(`/DescendantFonts [${descendantFont} 0 R]`);
  out(">>");
  out("endobj");
  font.isAlreadyPutted = true;
}

/**
 * The `/W` list jsPDF builds while drawing text: glyph id, [width], glyph id, [width]… For every
 * character drawn, jsPDF's `pdfEscape16` asks `widths.indexOf(glyphId)` before appending, a linear
 * scan of the list; this array answers that from an index instead. Contents and order are unchanged.
 */
class GlyphWidths extends Array<number | number[]> {
  static override get [Symbol.species]() {
    return Array;
  }
  private readonly positions = new Map<unknown, number>();

  override push(...items: (number | number[])[]): number {
    for (const item of items) {
      if (typeof item === "number" && !this.positions.has(item)) this.positions.set(item, this.length);
      super.push(item);
    }
    return this.length;
  }

  override indexOf(item: number | number[], fromIndex?: number): number {
    if (typeof item !== "number" || fromIndex !== undefined) return super.indexOf(item, fromIndex);
    return this.positions.get(item) ?? -1;
  }
}

/** jsPDF's ToUnicode CMap for the glyphs drawn (glyph id → UTF-16 code unit), as its utf8 plugin writes it. */
function toUnicodeCmap(map: Record<number, number>): string {
  const codes = Object.keys(map).sort((a, b) => Number(a) - Number(b));
  return toUnicodeCmapOf(
    codes.flatMap((code) => {
      const unicode = map[Number(code)];
      return unicode === undefined || unicode === null ? [] : [`<${`0000${(+code).toString(16)}`.slice(-4)}><${`0000${unicode.toString(16)}`.slice(-4)}>`];
    }),
  );
}

/** A ToUnicode CMap of `bfchar` entries ("<0012><0627>"), in blocks of 100, laid out as jsPDF's utf8 plugin lays it out. */
export function toUnicodeCmapOf(entries: readonly string[]): string {
  let cmap =
    "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo <<\n  /Registry (Adobe)\n  /Ordering (UCS)\n  /Supplement 0\n>> def\n/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000><ffff>\nendcodespacerange";
  for (let at = 0; at < entries.length; at += 100) {
    const block = entries.slice(at, at + 100);
    cmap += `\n${block.length} beginbfchar\n${block.join("\n")}\nendbfchar${at + 100 >= entries.length ? "\n" : ""}`;
  }
  return `${cmap}endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend`;
}

/** A PDF name (without the slash), as jsPDF writes one. */
function toPdfName(value: string): string {
  if (/[^\u0000-\u00ff]/.test(value)) throw new Error(`Invalid PDF Name Object: ${value}, Only accept ASCII characters.`);
  return value.replace(/[\u0000-\u0020#%()/<>[\]{}\u007f-\u00ff]/g, (char) => `#${`0${char.charCodeAt(0).toString(16)}`.slice(-2)}`);
}

// ---------------------------------------------------------------------------------------------
// Attaching fonts to a document.

/** The fonts of one document that this module writes, and the way to add more while it is drawn. */
export type EmbeddedFonts = {
  /** Rethrows a failure in writing one of the fonts (jsPDF's event bus would only log it). */
  throwIfFailed(): void;
  /**
   * Adds a font written by `put` when the document is written, under `fontName` and `style`, with
   * `metadata` as the font entry's metadata; returns jsPDF's font key (F3, F4…).
   */
  add(fontName: string, style: string, metadata: object, put: (args: PutFontArgs) => void): string;
};

/**
 * Adds `fonts` to `doc` under `fontName` (one per style, Identity-H), sharing the parsed fonts instead
 * of reading TTF files from the document's virtual file system. Must be called before anything is drawn
 * with them; other fonts in the document keep jsPDF's own handling.
 */
export function addEmbeddedFonts(doc: jsPDF, fontName: string, fonts: Readonly<Record<string, EmbeddedFont>>): EmbeddedFonts {
  const events = doc.internal.events;
  // jsPDF's event bus logs and swallows a handler's exception (the font would silently be missing):
  // keep it for the caller to rethrow once the document is written.
  let failure: unknown;
  /** Each of this document's font entries' metadata, and how that font is written. */
  const ours = new Map<unknown, (args: PutFontArgs) => void>();

  // jsPDF's addFont handlers would look the font up in the virtual file system and parse it: set
  // the shared parse instead, with the handlers detached for the call and put back in their order.
  const detach = (topic: string) =>
    Object.entries(events.getTopics()[topic] ?? {}).map(([token, [callback, once]]) => {
      events.unsubscribe(token);
      return { callback, once };
    });
  const reattach = (topic: string, handlers: { callback: (...args: unknown[]) => void; once: boolean }[]) => {
    for (const { callback, once } of handlers) events.subscribe(topic, callback, once);
  };

  const add = (family: string, style: string, metadata: object, put: (args: PutFontArgs) => void): string => {
    const addFontHandlers = detach("addFont");
    const token = events.subscribe("addFont", (data: { font: FontEntry }) => {
      data.font.metadata = metadata;
    });
    try {
      ours.set(metadata, put);
      return doc.addFont(`${family}-${style}.ttf`, family, style, undefined, "Identity-H");
    } finally {
      events.unsubscribe(token);
      reattach("addFont", addFontHandlers);
    }
  };
  for (const [style, font] of Object.entries(fonts)) {
    add(fontName, style, font.documentMetadata(), (args) => font.putFont(args, args.font.metadata as DocumentFontMetadata));
  }

  // When the document is written: our fonts through their own writer, any other font through
  // jsPDF's handlers as before.
  const putFontHandlers = detach("putFont");
  events.subscribe("putFont", function (this: unknown, args: PutFontArgs) {
    const put = ours.get(args.font.metadata);
    if (put) {
      try {
        put(args);
      } catch (error) {
        failure ??= error;
      }
      return;
    }
    for (const { callback } of putFontHandlers) callback.call(this, args);
  });
  return {
    throwIfFailed() {
      if (failure !== undefined) throw failure;
    },
    add,
  };
}
