import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A PDF's text as poppler's pdftotext extracts it, the spaces collapsed. */
export function pdfText(bytes: ArrayBuffer): string {
  const folder = mkdtempSync(path.join(tmpdir(), "report-pdf-"));
  try {
    const file = path.join(folder, "report.pdf");
    writeFileSync(file, Buffer.from(bytes));
    return execFileSync("pdftotext", ["-enc", "UTF-8", file, "-"], { encoding: "utf8" }).replace(/\s+/g, " ");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
