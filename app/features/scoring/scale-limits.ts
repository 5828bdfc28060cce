/**
 * The limits of a form's scoring configuration (docs/api-contract.md §15), apart from the engine so
 * that the form schemas, which pages read too, take them without server code.
 */
export const MAX_SUBSCALES = 20;
export const KEY_PATTERN = /^[A-Za-z0-9_.-]{1,40}$/;

export type ScoringMethod = "SUM" | "MEAN";
export type ScoreDisplay = "RAW" | "PERCENT";

/**
 * How a total is made. `maxMissing: null` is a form that never said: unanswered items score 0, as
 * they always have, and the total is always scorable. A number (0 included) turns the missing-item
 * rule on.
 */
export type ScoringSettings = { method: ScoringMethod; multiplier: number; maxMissing: number | null; display: ScoreDisplay };

export const DEFAULT_SCORING: ScoringSettings = { method: "SUM", multiplier: 1, maxMissing: null, display: "PERCENT" };
