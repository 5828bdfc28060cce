import type { Page } from "playwright-core";

/**
 * Driving the forms editor the way a person does: fields by their names, and the list-editing
 * buttons by what they say they do. With JavaScript off each of those buttons posts, and the
 * editor comes back with the change made.
 */
export const field = (page: Page, name: string) => page.locator(`[name="${name}"]`);

/** The editor's buttons, by a short name: `add-option:1` is "Add an option to question 2". */
export function intent(page: Page, action: string) {
  const [name, a, b] = action.split(":");
  const n = Number(a) + 1;
  const m = Number(b) + 1;
  const labels: Record<string, string> = {
    "add-question": "Add a question",
    "add-range": "Add a score range",
    "add-option": `Add an option to question ${n}`,
    "move-up": `Move question ${n} up`,
    "move-down": `Move question ${n} down`,
    "remove-question": `Remove question ${n}`,
    "remove-option": `Remove option ${m} of question ${n}`,
    "remove-range": `Remove score range ${n}`,
    preview: "Update the preview",
  };
  const label = labels[name!];
  if (!label) throw new Error(`No editor button for ${action}`);
  return page.getByRole("button", { name: label, exact: true });
}

/** Clicks an editing button and waits for the editor to come back with `expected` in it. */
export async function edit(page: Page, action: string, expected: string) {
  await intent(page, action).click();
  await field(page, expected).waitFor();
}

/** Fills the options of question `question` with [text, score] pairs, in order. */
export async function fillOptions(page: Page, question: number, options: [string, string][]) {
  for (const [j, [text, score]] of options.entries()) {
    await field(page, `questions[${question}].options[${j}].text`).fill(text);
    await field(page, `questions[${question}].options[${j}].score`).fill(score);
  }
}
