import AxeBuilder from "axe-core";
import type { Page } from "playwright-core";

/**
 * The time a test that scans several pages at two widths may take. axe's scan is CPU work in the
 * browser, and in a CI run it shares two cores with the other test worker, the app server,
 * PostgreSQL and a second Chromium: a scan of ten pages that takes 40 s alone took over 180 s in a
 * fresh-clone run on PostgreSQL (on a machine about three times slower than
 * the one before). A budget, not a measure: how fast pages are is the bench's business.
 */
export const ACCESSIBILITY_SCAN_TIMEOUT = 360_000;

/**
 * axe-core's serious and critical WCAG 2.x A/AA violations on the page as it is now, as
 * "rule: selector" lines (empty when clean). axe is injected as an inline script, which our
 * Content-Security-Policy rightly forbids: open the page in a context with `bypassCSP: true`.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AxeBuilder.source });
  const results = await page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<Result> } }).axe;
    // Only the violations are read: axe then builds a selector for one node of each other result
    // type instead of every node, the slow tail of a scan on a long page.
    return axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] },
      resultTypes: ["violations"],
    });
  });
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .flatMap((v) => v.nodes.map((node) => `${v.id}: ${node.target.join(" ")}`));
}
