import { z } from "zod";
import { expiryInput, idSchema, singleLineText, timestamp } from "~/lib/schemas.ts";

export const createApiTokenBody = z
  .strictObject({
    name: singleLineText(100).meta({ description: 'What the token is for ("Grade book sync").' }),
    expiresAt: expiryInput.optional().meta({ description: "When the token stops working; never when left out." }),
  })
  .meta({ id: "ApiTokenCreate" });
export type CreateApiTokenInput = z.output<typeof createApiTokenBody>;

const tokenFields = {
  id: idSchema,
  name: z.string(),
  createdAt: timestamp,
  expiresAt: timestamp.nullable(),
};

export const apiTokenItem = z.object({ ...tokenFields, lastUsedAt: timestamp.nullable() }).meta({ id: "ApiToken" });
export const apiTokenList = z.object({ tokens: z.array(apiTokenItem) }).meta({ id: "ApiTokenList" });
export const createdApiToken = z
  .object({ ...tokenFields, token: z.string().meta({ description: "Shown this once: only its hash is kept. Send it as `Authorization: Bearer <token>`." }) })
  .meta({ id: "CreatedApiToken" });

export const deletedApiToken = z.object({ id: idSchema }).meta({ id: "DeletedApiToken" });
