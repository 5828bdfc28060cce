import { z } from "zod";
import { expiryInput, idSchema, singleLineText, timestamp } from "~/lib/schemas.ts";
import { READ_WRITE, TOKEN_SCOPES } from "./token-scopes.ts";

const scopes = z
  .array(z.enum(TOKEN_SCOPES))
  .refine((given) => given.includes("read") && new Set(given).size === given.length, "tokenScopes")
  .meta({
    description: 'What the token may do: ["read"] (every write answers 403 TOKEN_SCOPE) or ["read", "write"] (the owner\'s writes too).',
    examples: [READ_WRITE],
  });

export const createApiTokenBody = z
  .strictObject({
    name: singleLineText(100).meta({ description: 'What the token is for ("Grade book sync").' }),
    scopes: scopes.default(() => [...READ_WRITE]),
    expiresAt: expiryInput.optional().meta({ description: "When the token stops working; never when left out." }),
  })
  .meta({ id: "ApiTokenCreate" });
export type CreateApiTokenInput = z.output<typeof createApiTokenBody>;

const tokenFields = {
  id: idSchema,
  name: z.string(),
  // A list of scopes, not a union of tuples: tuples become `prefixItems`, which validating proxies
  // and client generators still read wrongly (Stoplight Prism took each item as forbidden).
  scopes: z
    .array(z.enum(TOKEN_SCOPES))
    .min(1)
    .max(2)
    .meta({ description: 'What the token may do: ["read"] (read-only) or ["read", "write"].', examples: [READ_WRITE] }),
  createdAt: timestamp,
  expiresAt: timestamp.nullable(),
};

export const apiTokenItem = z.object({ ...tokenFields, lastUsedAt: timestamp.nullable() }).meta({ id: "ApiToken" });
export const apiTokenList = z.object({ tokens: z.array(apiTokenItem) }).meta({ id: "ApiTokenList" });
export const createdApiToken = z
  .object({ ...tokenFields, token: z.string().meta({ description: "Shown this once: only its hash is kept. Send it as `Authorization: Bearer <token>`." }) })
  .meta({ id: "CreatedApiToken" });

export const deletedApiToken = z.object({ id: idSchema }).meta({ id: "DeletedApiToken" });
