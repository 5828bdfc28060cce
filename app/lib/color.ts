/**
 * Colour arithmetic for score bands, whose colours are chosen by people: which text colour stays
 * readable on a band's colour (WCAG 2.2 relative luminance and contrast ratio).
 */
const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** "#1A7F37" → [26, 127, 55]; null for anything that is not #rgb or #rrggbb. */
export function parseHexColor(value: string | null | undefined): [number, number, number] | null {
  if (!value || !HEX.test(value)) return null;
  const hex = value.length === 4 ? [...value.slice(1)].map((c) => c + c).join("") : value.slice(1);
  return [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG relative luminance of an sRGB colour, 0 (black) to 1 (white). */
export function relativeLuminance([r, g, b]: [number, number, number]): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastRatio(a: number, b: number): number {
  const [light, dark] = a > b ? [a, b] : [b, a];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * "light" (white) or "dark" (black) text, whichever contrasts more with `background`. Pure white
 * and black are the only pair for which the better one always reaches 4.5:1 (WCAG AA), whatever
 * the background: the worst case, a mid grey, still gets about 4.58:1.
 */
export function readableTextOn(background: string): "light" | "dark" {
  const rgb = parseHexColor(background);
  return rgb ? readableTextOnRgb(rgb) : "dark";
}

/** The same for a colour already parsed (the PDF draws with RGB triples). */
export function readableTextOnRgb(background: [number, number, number]): "light" | "dark" {
  const luminance = relativeLuminance(background);
  return contrastRatio(luminance, 1) >= contrastRatio(luminance, 0) ? "light" : "dark";
}
