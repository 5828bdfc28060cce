/**
 * The pure parts of the reports search (reports.server.ts, docs/decisions/0011-substring-search.md):
 * its thresholds and how a folded term becomes an FTS5 phrase. No database here, so that they can
 * be tested alone (tests/unit/search.test.ts).
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

/**
 * On PostgreSQL, a term found in at most this many students' names and as many candidates' is
 * looked up from those people's results (peopleFirstReportIds in reports.server.ts,
 * docs/decisions/0039-reports-search-people-first.md); more sends it to the trigram index of
 * `searchText`.
 */
export const PEOPLE_FIRST_MAX_PEOPLE = 100;

/** The most results the people-first plan collects in full, to page and count them itself. */
export const PEOPLE_FIRST_MAX_RESULTS = 1000;

/** A row of the people-first plan's first statement: a captured form title, or a student or candidate whose name holds the term. */
export type PeopleFirstRow = { kind: "title" | "student" | "candidate"; value: string };

/**
 * The people whose results the term matches, from the rows of the people-first plan's first
 * statement (`fold` is foldForSearch): null when a title may hold the term or more than
 * PEOPLE_FIRST_MAX_PEOPLE people of a kind came back, for the general plan.
 */
export function peopleFirstRespondents(rows: readonly PeopleFirstRow[], term: string, fold: (text: string) => string) {
  const students: string[] = [];
  const candidates: string[] = [];
  for (const row of rows) {
    if (row.kind === "title" && titleMayHoldTerm(fold(row.value), term)) return null;
    if (row.kind === "student") students.push(row.value);
    if (row.kind === "candidate") candidates.push(row.value);
  }
  if (students.length > PEOPLE_FIRST_MAX_PEOPLE || candidates.length > PEOPLE_FIRST_MAX_PEOPLE) return null;
  return { students, candidates };
}

/**
 * Whether `term` could be found in a result's `searchText` (its respondent's folded name, a space,
 * its folded form title: app/lib/search.ts) other than inside the name, given the folded title
 * `title`: inside the title, or across the space between the two, where the term's part after one
 * of its spaces begins the title. When no title the results were captured with can, the term
 * matches exactly the results whose respondent's name contains it.
 */
export function titleMayHoldTerm(title: string, term: string): boolean {
  if (title.includes(term)) return true;
  for (let space = term.indexOf(" "); space !== -1; space = term.indexOf(" ", space + 1)) {
    if (title.startsWith(term.slice(space + 1))) return true;
  }
  return false;
}
