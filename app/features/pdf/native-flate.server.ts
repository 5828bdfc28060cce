import { deflateSync } from "node:zlib";
import { jsPDF } from "jspdf";

type FilterApi = {
  processDataByFilters(data: string, filterChain?: string | string[]): { data: string; reverseChain: string };
};

const isFlateOnly = (chain: string | string[] | undefined) => {
  const filters = typeof chain === "string" ? [chain] : (chain ?? []);
  return filters.length === 1 && (filters[0] === "FlateEncode" || filters[0] === "/FlateEncode");
};

/**
 * Runs `write`, a synchronous jsPDF call that writes a document (`doc.output(…)`), with the streams
 * jsPDF compresses (page contents, ToUnicode maps) deflated by Node's zlib rather than jsPDF's
 * pure-JS deflate and per-byte string rebuild. Same filter, same decompressed bytes; only the
 * compressed bytes differ.
 *
 * jsPDF's streams go through the plugin function `jsPDF.API.processDataByFilters`, looked up on the
 * shared API for every stream with no per-document hook; it is swapped for the duration of the call
 * and put back before this returns. The call is synchronous, so no other code runs in between and
 * nothing else that uses jsPDF sees the swap.
 */
export function withNativeFlate<T>(write: () => T): T {
  const api = jsPDF.API as unknown as FilterApi;
  const original = api.processDataByFilters;
  api.processDataByFilters = function (data, filterChain) {
    if (!isFlateOnly(filterChain)) return original.call(this, data, filterChain);
    return { data: deflateSync(Buffer.from(data || "", "latin1")).toString("latin1"), reverseChain: "/FlateDecode" };
  };
  try {
    return write();
  } finally {
    api.processDataByFilters = original;
  }
}
