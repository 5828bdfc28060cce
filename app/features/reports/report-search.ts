/**
 * The pure parts of the reports search (reports.server.ts, docs/decisions/0011-substring-search.md):
 * its thresholds and how a folded term becomes an FTS5 phrase. No database here: the app's search
 * uses them, and so does the bench's baseline, so that both search the same way.
 */

/**
 * The smallest search term a trigram index can answer: FTS5's trigram tokenizer finds nothing for
 * a shorter MATCH, and pg_trgm extracts no trigram from it and would read the whole index.
 */
export const MIN_INDEXED_SEARCH_LENGTH = 3;

/**
 * On SQLite, a term with up to this many matches in the whole table (all organizations) is looked
 * up row by row from its matches; one with more is filtered from the caller's scope index (see
 * searchReportIds in reports.server.ts).
 */
export const FTS_DRIVEN_MAX_MATCHES = 1000;

/** A folded term as one FTS5 phrase (quoted, `"` doubled): a run of consecutive trigrams, i.e. a substring match. */
export const ftsPhrase = (term: string) => `"${term.replaceAll('"', '""')}"`;

/** Whether a trigram index can answer the term (at least MIN_INDEXED_SEARCH_LENGTH characters). */
export const indexable = (term: string) => [...term].length >= MIN_INDEXED_SEARCH_LENGTH;

/**
 * How many of the caller's newest results `newestMatchingPage` reads per result it needs: a term
 * with more than FTS_DRIVEN_MAX_MATCHES matches usually matches one result in a few.
 */
export const NEWEST_WINDOW_PER_RESULT = 20;
export const NEWEST_WINDOW_MAX = 20_000;

/**
 * How many of the caller's newest results to read for a page that needs the first `needed`
 * matches, or null when the bounded window could not hold them.
 */
export function newestWindow(needed: number): number | null {
  const window = Math.min(needed * NEWEST_WINDOW_PER_RESULT, NEWEST_WINDOW_MAX);
  return window < needed ? null : window;
}
