/**
 * Some keys of a dictionary said again: the shape of a clinic's words (ADR 81). A group may leave
 * any key out; a key given keeps the base key's type, so a function takes the same values.
 */
export type Overrides<T> = {
  [K in keyof T]?: T[K] extends string | ((...args: never[]) => unknown) ? T[K] : Overrides<T[K]>;
};

const isGroup = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** `base` with `overrides` in place, key by key, built once per language when the dictionary loads. */
export function withOverrides<T extends object>(base: T, overrides: Overrides<T>): T {
  const merged: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(overrides)) {
    const current = merged[key];
    merged[key] = isGroup(current) && isGroup(value) ? withOverrides(current, value as Overrides<typeof current>) : value;
  }
  return merged as T;
}
