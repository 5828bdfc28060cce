import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Rebuilds app/features/auth/common-passwords.txt, the list of common passwords that new passwords are
 * checked against (docs/decisions/0006-passwords-and-recovery.md).
 *
 * Source: the ranked "passwords" dictionary of the npm package @zxcvbn-ts/language-common (MIT),
 * itself derived from zxcvbn's list of the most frequent passwords in leaked password sets. It is
 * not a dependency of the app; fetch it once with the ordinary npm client and point this script at
 * it:
 *
 *   npm pack @zxcvbn-ts/language-common@4.1.3 && tar xzf zxcvbn-ts-language-common-4.1.3.tgz
 *   npx tsx scripts/build-common-passwords.ts package/src/passwords.json
 *
 * Shorter passwords are refused by the length rule anyway, so the file keeps the COUNT most common
 * entries that are at least 8 characters (code points) long, in rank order.
 */
const COUNT = 10_000;
const MIN_LENGTH = 8;
const SOURCE = "@zxcvbn-ts/language-common@4.1.3 (src/passwords.json)";

const input = process.argv[2];
if (!input) {
  console.error("Usage: npx tsx scripts/build-common-passwords.ts <path to passwords.json>");
  process.exit(1);
}
const ranked = JSON.parse(readFileSync(input, "utf8")) as unknown;
if (!Array.isArray(ranked) || !ranked.every((entry) => typeof entry === "string")) {
  throw new Error(`${input} is not a JSON array of strings.`);
}

const seen = new Set<string>();
const selected: string[] = [];
for (const entry of ranked as string[]) {
  const password = entry.normalize("NFKC").toLowerCase();
  if ([...password].length < MIN_LENGTH || seen.has(password)) continue;
  if (password.startsWith("#") || /[\r\n]/.test(password)) throw new Error(`Cannot store ${JSON.stringify(password)} in the list.`);
  seen.add(password);
  selected.push(password);
  if (selected.length === COUNT) break;
}

const header = [
  `# The ${selected.length} most common passwords of at least ${MIN_LENGTH} characters, most common first.`,
  "# New passwords on this list are refused (app/features/auth/password-policy.server.ts).",
  `# Derived by scripts/build-common-passwords.ts from ${SOURCE},`,
  "# https://github.com/zxcvbn-ts/zxcvbn, under the MIT licence:",
  "#",
  "# Copyright (c) 2012-2016 Dan Wheeler and Dropbox, Inc.",
  "# Copyright (c) 2021 @zxcvbn-ts",
  "#",
  "# Permission is hereby granted, free of charge, to any person obtaining a copy of this software and",
  '# associated documentation files (the "Software"), to deal in the Software without restriction,',
  "# including without limitation the rights to use, copy, modify, merge, publish, distribute,",
  "# sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is",
  "# furnished to do so, subject to the following conditions:",
  "#",
  "# The above copyright notice and this permission notice shall be included in all copies or",
  "# substantial portions of the Software.",
  "#",
  '# THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT',
  "# NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND",
  "# NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES",
  "# OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN",
  "# CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.",
];
const output = path.resolve(import.meta.dirname, "../app/features/auth/common-passwords.txt");
writeFileSync(output, `${[...header, ...selected].join("\n")}\n`);
console.log(`Wrote ${selected.length} passwords to ${path.relative(process.cwd(), output)}.`);
