/**
 * Input a client should never send, shared by the API's and the pages' tests: each must be
 * answered as the client's mistake (a 4xx, or the page with the input left out), never with a 500.
 */

/**
 * Form field names that Conform cannot read as a path (`a]`, `name[`, `a..b`) or that would reach
 * an object's prototype (`__proto__.x`, `constructor.x`).
 */
export const BAD_FIELD_NAMES = ["a]", "name[", "__proto__.x", "constructor.x", "a..b"];

/**
 * Query strings, written as they go on the wire: the field names above and more of their kind as
 * parameter names (an index that would allocate a list of 100 million entries among them), the
 * names of `Object.prototype`'s members, repeated parameters, and percent-encoding that does not
 * decode (a truncated UTF-8 sequence, a lone `%`, non-hexadecimal digits) in a name and in a value.
 */
export const BAD_QUERY_STRINGS = [
  ...BAD_FIELD_NAMES.map((name) => `${name}=1`),
  "a[=1",
  "__proto__=1",
  "__proto__[x]=1",
  "constructor.prototype=1",
  "constructor.prototype.x=1",
  "constructor=1",
  "toString=1",
  "hasOwnProperty=1",
  "x[99999999]=1",
  "search=a&search=b",
  "page=1&page=2&page=3",
  "q=a&q=b",
  "from=2026-01-01&from=2026-01-02",
  "%E0%A4%A=1",
  "search=%E0%A4%A",
  "%=1",
  "search=%",
  "search=%ZZ",
  "=1",
  "&&=&",
];
