import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * HarfBuzz's own subsetter (hb-subset, the `harfbuzz-subset.wasm` that the `harfbuzzjs` package
 * ships beside its shaper) for the Noto Sans embedded in every report: the glyphs a document draws
 * and nothing else. ADR 65 measured it against the hand-written subsetter it replaced, and against
 * the script fonts' own, which stays (scripts/bench/font-subset.ts).
 *
 * The module has no imports (it is a WASI reactor: `_initialize` runs its constructors), so it is
 * instantiated synchronously, once per process or worker thread, on the first font that needs it.
 * Each font is first cut down, once, to the tables a PDF reads (all glyphs, ids kept, no hinting),
 * and that face is handed to `hb_subset_preprocess`, which keeps what HarfBuzz would otherwise
 * parse again for every subset. Preparing the whole font instead re-serializes its layout tables
 * (GSUB, GPOS): 100–500 ms for Noto Sans against about 10 ms; and each subset of the prepared face
 * is faster than of the raw one. Faces live as long as the process (they are cached with the
 * fonts); inputs and outputs are freed after each subset.
 */

type Exports = {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(size: number): number;
  free(ptr: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_length(blob: number): number;
  hb_blob_get_data(blob: number, length: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_set_del(set: number, value: number): void;
  hb_set_invert(set: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_glyph_set(input: number): number;
  hb_subset_input_set(input: number, which: number): number;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_preprocess(face: number): number;
  hb_subset_or_fail(face: number, input: number): number;
};

/** hb_memory_mode_t: HarfBuzz copies the bytes and frees its copy when no face needs it any more. */
const HB_MEMORY_MODE_DUPLICATE = 0;
/** hb_subset_flags_t: leave out hinting (the glyphs' instructions, fpgm, prep, cvt), which no PDF viewer needs. */
const HB_SUBSET_FLAGS_NO_HINTING = 0x1;
/** hb_subset_flags_t: every glyph keeps its id, the glyphs left out become empty. */
const HB_SUBSET_FLAGS_RETAIN_GIDS = 0x2;
/** hb_subset_flags_t: keep .notdef's outline (HarfBuzz empties it by default), the box a missing character shows. */
const HB_SUBSET_FLAGS_NOTDEF_OUTLINE = 0x40;
/** hb_subset_sets_t: the tables to leave out. */
const HB_SUBSET_SETS_DROP_TABLE_TAG = 3;

/**
 * The tables kept: those a PDF's TrueType font program needs (ISO 32000-1 §9.9; hinting is left out)
 * and `post`. A CIDFont maps CIDs to glyph ids itself, so no `cmap`; the text is shaped before it is
 * drawn, so no layout tables.
 */
const KEPT_TABLES = ["glyf", "loca", "head", "hhea", "hmtx", "maxp", "post"];

const tagOf = (tag: string) => ((tag.charCodeAt(0) << 24) | (tag.charCodeAt(1) << 16) | (tag.charCodeAt(2) << 8) | tag.charCodeAt(3)) >>> 0;

/**
 * The module's memory is fixed at 65 MB (it cannot grow): room for Noto Sans many times over, but
 * not for the CJK faces (5–10 MB each, and a copy while prepared), which is one reason the script
 * fonts keep their own subsetter (ADR 65).
 */
const outOfMemory = "out of memory: harfbuzz-subset.wasm has 65 MB";

let instance: Exports | undefined;

function hbSubset(): Exports {
  if (instance) return instance;
  const require = createRequire(import.meta.url);
  const module = new WebAssembly.Module(readFileSync(require.resolve("harfbuzzjs/dist/harfbuzz-subset.wasm")));
  const exports = new WebAssembly.Instance(module, {}).exports as unknown as Exports;
  exports._initialize();
  instance = exports;
  return exports;
}

/** A TrueType font read once, from which any number of subsets are cut. */
export class FontSubsetter {
  private readonly face: number;

  constructor(bytes: Uint8Array) {
    const hb = hbSubset();
    const data = hb.malloc(bytes.length);
    if (data === 0) throw new Error(outOfMemory);
    new Uint8Array(hb.memory.buffer, data, bytes.length).set(bytes);
    const blob = hb.hb_blob_create(data, bytes.length, HB_MEMORY_MODE_DUPLICATE, 0, 0);
    hb.free(data);
    const face = hb.hb_face_create(blob, 0);
    hb.hb_blob_destroy(blob);
    const reduced = withInput(hb, (input) => {
      hb.hb_set_invert(hb.hb_subset_input_glyph_set(input));
      return subsetOf(hb, face, input, HB_SUBSET_FLAGS_NO_HINTING | HB_SUBSET_FLAGS_NOTDEF_OUTLINE | HB_SUBSET_FLAGS_RETAIN_GIDS);
    });
    hb.hb_face_destroy(face);
    this.face = hb.hb_subset_preprocess(reduced);
    hb.hb_face_destroy(reduced);
  }

  /**
   * The font program with these glyphs (and .notdef, and the glyphs composite glyphs are built
   * from). By default each glyph keeps its id, so the PDF maps CIDs to glyphs one to one
   * (CIDToGIDMap /Identity); `renumber` numbers them from 0 in the order of their ids instead,
   * as the bench does to compare HarfBuzz with the script fonts' subsetter.
   */
  subset(glyphIds: Iterable<number>, { renumber = false }: { renumber?: boolean } = {}): Uint8Array {
    const hb = hbSubset();
    const result = withInput(hb, (input) => {
      const glyphs = hb.hb_subset_input_glyph_set(input);
      for (const id of glyphIds) hb.hb_set_add(glyphs, id);
      return subsetOf(hb, this.face, input, HB_SUBSET_FLAGS_NO_HINTING | HB_SUBSET_FLAGS_NOTDEF_OUTLINE | (renumber ? 0 : HB_SUBSET_FLAGS_RETAIN_GIDS));
    });
    try {
      const blob = hb.hb_face_reference_blob(result);
      try {
        return new Uint8Array(hb.memory.buffer, hb.hb_blob_get_data(blob, 0), hb.hb_blob_get_length(blob)).slice();
      } finally {
        hb.hb_blob_destroy(blob);
      }
    } finally {
      hb.hb_face_destroy(result);
    }
  }
}

function withInput<T>(hb: Exports, use: (input: number) => T): T {
  const input = hb.hb_subset_input_create_or_fail();
  if (input === 0) throw new Error(outOfMemory);
  try {
    return use(input);
  } finally {
    hb.hb_subset_input_destroy(input);
  }
}

/** The subset of `face` the input's glyphs ask for, with only KEPT_TABLES: a face to destroy. */
function subsetOf(hb: Exports, face: number, input: number, flags: number): number {
  const dropped = hb.hb_subset_input_set(input, HB_SUBSET_SETS_DROP_TABLE_TAG);
  hb.hb_set_invert(dropped);
  for (const tag of KEPT_TABLES) hb.hb_set_del(dropped, tagOf(tag));
  hb.hb_subset_input_set_flags(input, flags);
  const result = hb.hb_subset_or_fail(face, input);
  if (result === 0) throw new Error(`HarfBuzz could not subset the font (${outOfMemory}?)`);
  return result;
}
