/**
 * What a token may do (docs/api-contract.md §23, ADR 54): every token reads; one without `write`
 * changes nothing. Plain constants, kept apart from the Zod schemas: the tokens page shows them.
 */
export const TOKEN_SCOPES = ["read", "write"] as const;
export const READ_ONLY = ["read"] as const;
export const READ_WRITE = ["read", "write"] as const;

/** The scopes of a stored token: its one column says whether it is read-only. */
export const scopesOf = (token: { readOnly: boolean }) => (token.readOnly ? READ_ONLY : READ_WRITE);
