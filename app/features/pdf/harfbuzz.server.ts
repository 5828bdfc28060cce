import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * HarfBuzz (the `harfbuzzjs` package's WebAssembly build) for shaping: Arabic letters in their
 * joined forms and ligatures, marks on their bases, emoji sequences, and glyph ids for any script.
 *
 * The package's own wrapper starts the module with a top-level await; renders here are
 * synchronous, so the same `harfbuzz.wasm` is instantiated synchronously instead, on the first
 * text that needs it (a Latin-only report never does), once per process or worker thread, through
 * HarfBuzz's C API. Its five imports are the Emscripten runtime's: only growing the memory does
 * anything. Faces and fonts live as long as the process (they are cached with the fonts);
 * buffers are freed after each shaping.
 */

type Exports = {
  memory: WebAssembly.Memory;
  __wasm_call_ctors(): void;
  malloc(size: number): number;
  free(ptr: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_face_create(blob: number, index: number): number;
  hb_face_get_upem(face: number): number;
  hb_font_create(face: number): number;
  hb_font_get_nominal_glyph(font: number, unicode: number, glyph: number): number;
  hb_buffer_create(): number;
  hb_buffer_destroy(buffer: number): void;
  hb_buffer_add_utf16(buffer: number, text: number, length: number, offset: number, itemLength: number): void;
  hb_buffer_set_direction(buffer: number, direction: number): void;
  hb_buffer_guess_segment_properties(buffer: number): void;
  hb_buffer_get_length(buffer: number): number;
  hb_buffer_get_glyph_infos(buffer: number, length: number): number;
  hb_buffer_get_glyph_positions(buffer: number, length: number): number;
  hb_shape(font: number, buffer: number, features: number, featureCount: number): void;
};

const HB_MEMORY_MODE_READONLY = 1;
const HB_DIRECTION_LTR = 4;
const HB_DIRECTION_RTL = 5;
const PAGE = 65536;

let instance: Exports | undefined;

function harfbuzz(): Exports {
  if (instance) return instance;
  const require = createRequire(import.meta.url);
  const module = new WebAssembly.Module(readFileSync(require.resolve("harfbuzzjs/dist/harfbuzz.wasm")));
  let memory: WebAssembly.Memory | undefined;
  const fail = (what: string) => () => {
    throw new Error(`HarfBuzz: ${what}`);
  };
  const imports = {
    wasi_snapshot_preview1: { proc_exit: fail("exited") },
    env: {
      _emscripten_runtime_keepalive_clear: () => {},
      _abort_js: fail("aborted"),
      _setitimer_js: () => 0,
      emscripten_resize_heap: (requested: number) => {
        const current = memory!.buffer.byteLength;
        const target = Math.min(Math.max(requested >>> 0, current * 2), 2 ** 31);
        try {
          memory!.grow(Math.ceil((target - current) / PAGE));
          return 1;
        } catch {
          return 0;
        }
      },
    },
  };
  const exports = new WebAssembly.Instance(module, imports).exports as unknown as Exports;
  memory = exports.memory;
  exports.__wasm_call_ctors();
  instance = exports;
  return exports;
}

export type ShapedGlyph = {
  /** Glyph id in the font. */
  gid: number;
  /** Index in the shaped string (UTF-16 code units) of the first character of the glyph's cluster. */
  cluster: number;
  /** Advance and offsets in font units. */
  advance: number;
  xOffset: number;
  yOffset: number;
};

/** A font face in HarfBuzz, kept for the life of the process. */
export class HbFont {
  readonly unitsPerEm: number;
  private readonly font: number;
  private readonly glyphPointer: number;

  constructor(bytes: Uint8Array) {
    const hb = harfbuzz();
    const data = hb.malloc(bytes.length);
    new Uint8Array(hb.memory.buffer, data, bytes.length).set(bytes);
    const blob = hb.hb_blob_create(data, bytes.length, HB_MEMORY_MODE_READONLY, 0, 0);
    const face = hb.hb_face_create(blob, 0);
    hb.hb_blob_destroy(blob);
    this.unitsPerEm = hb.hb_face_get_upem(face);
    this.font = hb.hb_font_create(face);
    this.glyphPointer = hb.malloc(4);
  }

  /** The glyph the font's cmap gives a code point, or 0 when it has none. */
  glyphOf(codePoint: number): number {
    const hb = harfbuzz();
    if (!hb.hb_font_get_nominal_glyph(this.font, codePoint, this.glyphPointer)) return 0;
    return new Uint32Array(hb.memory.buffer, this.glyphPointer, 1)[0]!;
  }

  /**
   * Shapes `text.slice(start, end)` with the rest of `text` as context (Arabic letters join across
   * the edges of a run), in visual order: left to right, so an RTL run's glyphs come last letter first.
   */
  shape(text: string, start: number, end: number, rtl: boolean): ShapedGlyph[] {
    const hb = harfbuzz();
    const units = text.length;
    const textPointer = hb.malloc(units * 2 + 2);
    const buffer = hb.hb_buffer_create();
    try {
      const view = new Uint16Array(hb.memory.buffer, textPointer, units);
      for (let i = 0; i < units; i++) view[i] = text.charCodeAt(i);
      hb.hb_buffer_add_utf16(buffer, textPointer, units, start, end - start);
      hb.hb_buffer_set_direction(buffer, rtl ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
      hb.hb_buffer_guess_segment_properties(buffer);
      hb.hb_shape(this.font, buffer, 0, 0);
      const count = hb.hb_buffer_get_length(buffer);
      const infos = hb.hb_buffer_get_glyph_infos(buffer, 0);
      const positions = hb.hb_buffer_get_glyph_positions(buffer, 0);
      const info = new Uint32Array(hb.memory.buffer, infos, count * 5);
      const position = new Int32Array(hb.memory.buffer, positions, count * 5);
      const glyphs: ShapedGlyph[] = [];
      for (let i = 0; i < count; i++) {
        glyphs.push({ gid: info[i * 5]!, cluster: info[i * 5 + 2]!, advance: position[i * 5]!, xOffset: position[i * 5 + 2]!, yOffset: position[i * 5 + 3]! });
      }
      return glyphs;
    } finally {
      hb.hb_buffer_destroy(buffer);
      hb.free(textPointer);
    }
  }
}
