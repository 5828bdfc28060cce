import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The documentation a newcomer reads (README.md and docs/) holds together: every decision is in
 * the index of decisions and every row of the index is a decision, every relative link opens a
 * file (and a heading, for a link to one), the benchmarks page stays short, and no text speaks of
 * the issues the work came from. Plain file reads: no server, no database.
 */

const root = join(import.meta.dirname, "../..");
const decisionsDir = join(root, "docs/decisions");
const DECISION_FILE = /^(\d{4})-[a-z0-9-]+\.md$/;
/** Decisions being written while the index is merged: a row may name one before its file arrives. */
const EXPECTED_DECISIONS = new Set(["0053", "0055", "0056"]);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = join(dir, name);
    if (statSync(file).isDirectory()) return markdownFiles(file);
    return name.endsWith(".md") ? [file] : [];
  });
}

const documents = [join(root, "README.md"), ...markdownFiles(join(root, "docs"))];
const read = (file: string) => readFileSync(file, "utf8");
const shown = (file: string) => relative(root, file);

/** The text outside fenced code blocks, where a `#` starts a heading. */
const withoutFences = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
/** The text outside fenced code blocks and inline code, where a link is a link. */
const prose = (markdown: string) => withoutFences(markdown).replace(/`[^`\n]*`/g, "");

/** The anchors of a document's headings, as GitHub makes them (a repeated heading gets -1, -2 …). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ""] of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = heading.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/<[^>]+>/g, "");
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Every relative link of a document: `[text](target)`, with its target split into file and anchor. */
function relativeLinks(markdown: string): { target: string; path: string; anchor: string | null }[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)]
    .map(([, target = ""]) => target)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const at = target.indexOf("#");
      return { target, path: at === -1 ? target : target.slice(0, at), anchor: at === -1 ? null : decodeURIComponent(target.slice(at + 1)) };
    });
}

describe("the index of decisions", () => {
  const files = readdirSync(decisionsDir).filter((name) => DECISION_FILE.test(name));
  const index = read(join(decisionsDir, "README.md"));
  // The first link of a row is the decision's own; those after it are in its status.
  const rows = [...index.matchAll(/^\|\s*\d+\s*\|\s*\[[^\]\n]*\]\((\d{4}-[a-z0-9-]+\.md)\)/gm)].map(([, file = ""]) => file);

  it("given a decision's file, should list it in the index", () => {
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((file) => !rows.includes(file))).toEqual([]);
  });

  it("given a row of the index, should name a decision that exists (or one of those being written)", () => {
    const missing = rows.filter((file) => !files.includes(file) && !EXPECTED_DECISIONS.has(file.slice(0, 4)));
    expect(missing).toEqual([]);
    expect(new Set(rows).size).toBe(rows.length);
  });

  it("given the decisions, should give each its own number and a status line", () => {
    const numbers = files.map((file) => file.slice(0, 4));
    expect(new Set(numbers).size).toBe(numbers.length);
    const withoutStatus = files.filter((file) => !/^Status: \S/m.test(read(join(decisionsDir, file))));
    expect(withoutStatus).toEqual([]);
  });
});

describe("links between documents", () => {
  it("given a relative link in README.md or docs/, should open a file that exists, at a heading that exists", () => {
    const broken: string[] = [];
    const anchorCache = new Map<string, Set<string>>();
    const anchors = (file: string) => {
      let found = anchorCache.get(file);
      if (!found) {
        found = anchorsOf(read(file));
        anchorCache.set(file, found);
      }
      return found;
    };
    for (const document of documents) {
      for (const link of relativeLinks(read(document))) {
        const target = link.path === "" ? document : normalize(join(dirname(document), decodeURIComponent(link.path)));
        if (!existsSync(target)) {
          broken.push(`${shown(document)}: ${link.target} (no such file)`);
          continue;
        }
        if (link.anchor !== null && target.endsWith(".md") && !anchors(target).has(link.anchor)) {
          broken.push(`${shown(document)}: ${link.target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("given the contract's headings, should find a section by the anchor the contributing guide's example uses", () => {
    expect(anchorsOf(read(join(root, "docs/api-contract.md")))).toContain("23-keeping-another-system-in-step");
  });
});

describe("the documents' size and wording", () => {
  it("given docs/benchmarks.md, should stay under 300 lines", () => {
    const text = read(join(root, "docs/benchmarks.md"));
    const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    expect(lines).toBeLessThan(300);
  });

  it("given README.md and docs/, should name no issue the work came from", () => {
    const files = [join(root, "README.md"), ...readdirSync(join(root, "docs"), { recursive: true }).map((name) => join(root, "docs", String(name)))];
    const found = files
      .filter((file) => statSync(file).isFile())
      .flatMap((file) => [...read(file).matchAll(/.{0,30}\bissues? #?\d+.{0,30}/gi)].map(([match]) => `${shown(file)}: ${match}`));
    expect(found).toEqual([]);
  });
});
