import type { Page } from "playwright-core";

/**
 * Driving the forms editor the way a person does without JavaScript: fields by their names and
 * the editing buttons (`intent`) that send the editor back with the change applied.
 */
export const field = (page: Page, name: string) => page.locator(`[name="${name}"]`);
export const intent = (page: Page, value: string) => page.locator(`button[name="intent"][value="${value}"]`);

/** Clicks an editing button and waits for the editor to come back with `expected` in it. */
export async function edit(page: Page, value: string, expected: string) {
  await intent(page, value).click();
  await field(page, expected).waitFor();
}

/** Fills the options of question `question` with [text, score] pairs, in order. */
export async function fillOptions(page: Page, question: number, options: [string, string][]) {
  for (const [j, [text, score]] of options.entries()) {
    await field(page, `questions.${question}.options.${j}.text`).fill(text);
    await field(page, `questions.${question}.options.${j}.score`).fill(score);
  }
}
