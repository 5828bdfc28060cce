import { describe, expect, it } from "vitest";
import { orderHash, respondentOrder, shuffledBy } from "~/features/submissions/respondent-order.ts";

/** The order a link shows a shuffled form in (docs/api-contract.md §22, ADR 91). */
const question = (id: string, type: "SINGLE_CHOICE" | "SCALE" = "SINGLE_CHOICE") => ({
  id,
  type,
  options: ["a", "b", "c", "d", "e"].map((option) => ({ id: `${id}-${option}` })),
});
const questions = Array.from({ length: 10 }, (_, i) => question(`q${i}`, i === 9 ? "SCALE" : "SINGLE_CHOICE"));
const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

describe("respondentOrder", () => {
  it("given the same link, should give the same order every time; another link, most often another", () => {
    const both = { shuffleQuestions: true, shuffleOptions: true };
    const once = respondentOrder(questions, "link-1", both);
    expect(respondentOrder(questions, "link-1", both)).toEqual(once);
    expect(ids(once).sort()).toEqual(ids(questions).sort());
    const orders = new Set(Array.from({ length: 50 }, (_, i) => ids(respondentOrder(questions, `link-${i}`, both)).join()));
    expect(orders.size).toBeGreaterThan(45);
  });

  it("given a scale, should keep its points in order; without shuffling, the form's order", () => {
    const shuffled = respondentOrder(questions, "link-2", { shuffleQuestions: false, shuffleOptions: true });
    expect(ids(shuffled)).toEqual(ids(questions));
    expect(shuffled[9]).toBe(questions[9]);
    expect(shuffled.slice(0, 9).some((q, i) => ids(q.options).join() !== ids(questions[i]!.options).join())).toBe(true);
    expect(respondentOrder(questions, "link-2", { shuffleQuestions: false, shuffleOptions: false })).toEqual(questions);
  });

  it("given a question added later, should leave the others in the order they had", () => {
    const before = ids(shuffledBy(questions, "link-3"));
    const after = ids(shuffledBy([...questions, question("added")], "link-3")).filter((id) => id !== "added");
    expect(after).toEqual(before);
  });

  it("given each of 10 items over 4,000 seeds, should place it first about as often as any other", () => {
    const first = new Map<string, number>();
    for (let seed = 0; seed < 4000; seed++) {
      const id = shuffledBy(questions, `submission-${seed}`)[0]!.id;
      first.set(id, (first.get(id) ?? 0) + 1);
    }
    for (const count of first.values()) expect(count).toBeGreaterThan(300);
    expect(orderHash("a")).not.toBe(orderHash("b"));
  });
});
