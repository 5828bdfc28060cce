/**
 * Search is case- and accent-insensitive on both databases because every searchable text is also
 * stored folded (`searchName`, `searchTitle`, ...) and the search term is folded the same way before
 * a plain substring match in SQL. Letters that Unicode does not decompose (ł, ø, ß, æ, œ, đ, ı)
 * are mapped by hand so `lukasz` finds “Łukasz” and `orsted` finds “Ørsted”.
 *
 * The characters LIKE treats specially (%, _ and the escape \) are replaced by look-alikes on both
 * sides, because SQLite's LIKE has no default escape character: a search for “50%” then matches
 * the literal text and never acts as a wildcard.
 */
const LIKE_SPECIALS: Record<string, string> = { "%": "\u2030", _: "\u2017", "\\": "\u2216" };
const UNDECOMPOSED: Record<string, string> = {
  ł: "l",
  ø: "o",
  ß: "ss",
  æ: "ae",
  œ: "oe",
  đ: "d",
  ð: "d",
  þ: "th",
  ı: "i",
};

export function foldForSearch(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[łøßæœđðþı]/g, (letter) => UNDECOMPOSED[letter] ?? letter)
    .replace(/[%_\\]/g, (special) => LIKE_SPECIALS[special] ?? special)
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * A completed submission's `searchText`, the one column the reports search reads: its respondent's
 * current name and the form title captured at completion, folded. Written at completion and again
 * whenever the respondent is renamed (app/features/people/people.server.ts).
 */
export function submissionSearchText(respondentName: string, formTitle: string | null): string {
  return foldForSearch(formTitle === null ? respondentName : `${respondentName} ${formTitle}`);
}
