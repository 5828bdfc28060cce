import { deflateSync } from "node:zlib";
import { jsPDF } from "jspdf";
import { FontSubsetter } from "./font-subset.server.ts";

/**
 * A TrueType font parsed once per process and embedded, subset, in any number of jsPDF documents.
 *
 * jsPDF's own path (`addFileToVFS` + `addFont` with Identity-H) costs a 600 KB binary-string copy and a
 * full TTF parse per document, then, when the document is written, a subsetter that builds the font
 * program byte by byte in plain arrays and a pure-JS deflate of the ~110 KB result. For a report that
 * was most of the render time.
 *
 * Here the TTF is parsed once (with jsPDF's own parser, so metrics, glyph lookup and text handling are
 * unchanged); each document gets a small per-document view of it (its own used-glyph list, widths
 * and ToUnicode map, nothing else is written to). When the document is written, HarfBuzz's subsetter
 * (font-subset.server.ts) cuts the glyphs it drew out of the font, keeping their ids, and native zlib
 * compresses the result; the PDF objects around it are the ones jsPDF writes (ADR 65).
 *
 * Everything cached is fixed at load and read-only afterwards, so it is shared safely by concurrent
 * requests and does not grow with the number of documents.
 */

// ---------------------------------------------------------------------------------------------
// The parts of jsPDF's TTF parser (jsPDF.API.TTFFont) this module relies on.

type ParsedTtf = {
  cmap: { unicode?: { codeMap?: Record<string, number> } };
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
// The font.

export class EmbeddedFont {
  /** Unicode code points with a glyph other than .notdef. */
  readonly coverage: ReadonlySet<number>;
  /** The parsed font, shared by every document; never written to after load. */
  private readonly parsed: ParsedTtf;
  private readonly subsetter: FontSubsetter;

  constructor(file: Uint8Array) {
    const parsed = api.TTFFont.open(file);
    this.parsed = parsed;
    const codeMap = parsed.cmap.unicode?.codeMap ?? {};
    this.coverage = new Set(
      Object.entries(codeMap)
        .filter(([, glyph]) => glyph > 0)
        .map(([code]) => Number(code)),
    );
    this.subsetter = new FontSubsetter(file);
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
   * The subset TTF for these glyph ids (with .notdef and the glyphs composite glyphs are built
   * from), each glyph under its own id: the content streams jsPDF writes draw CID = glyph id.
   */
  fontProgram(glyphIds: Iterable<number>): Uint8Array {
    return this.subsetter.subset(glyphIds);
  }

  /** The PDF objects jsPDF's Identity-H font plugin writes, with this font's program. */
  putFont({ font, out, newObject, putStream }: PutFontArgs, metadata: DocumentFontMetadata) {
    const convert = api.PDFObject.convert;
    const program = this.fontProgram(metadata.glyIdsUsed);
    const { fontFile, toUnicode } = putFontStreams({ out, newObject, putStream }, deflateSync(program), program.length, toUnicodeCmap(metadata.toUnicode));
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
