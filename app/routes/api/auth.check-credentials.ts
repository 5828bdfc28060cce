import { z } from "zod";
import { verifyEmailAndPassword } from "~/features/auth/credentials.server.ts";
import { unlockedUserOf } from "~/features/auth/sign-in-unlock.server.ts";
import { CHECK_CREDENTIALS_LIMIT, consumeRateLimit } from "~/lib/auth/rate-limit.server.ts";
import { checkCredentialsBody } from "~/features/auth/sign-in.server.ts";
import { startSecondFactor } from "~/features/auth/two-factor.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";
import { requestOrigin } from "~/lib/request-origin.server.ts";

const checkCredentialsResponse = z
  .object({ twoFactorRequired: z.boolean(), method: z.enum(["TOTP", "EMAIL"]).optional() })
  .meta({ id: "CheckCredentialsResult" });

const handle = endpoint(
  {
    POST: async ({ request, context }) => {
      // Every call counts, valid or not, before the body is even looked at.
      const clientAddress = clientAddressOf(context);
      await consumeRateLimit(CHECK_CREDENTIALS_LIMIT, clientAddress);
      const { email, password } = await readJsonBody(request, checkCredentialsBody);
      const user = await verifyEmailAndPassword(email, password, {
        clientAddress,
        origin: requestOrigin(request, clientAddress),
        unlockedUserId: await unlockedUserOf(request),
      });
      // 429 while the second step is locked; EMAIL users get a fresh code (calling again re-sends it).
      await startSecondFactor(user);
      return json(user.twoFactorMethod ? { twoFactorRequired: true, method: user.twoFactorMethod } : { twoFactorRequired: false });
    },
  },
  {
    POST: {
      operationId: "checkCredentials",
      tag: "Authentication",
      auth: "public",
      summary:
        "Check an e-mail and password and learn whether a second factor is needed (5 calls per 10 minutes per IP). For EMAIL it e-mails a fresh 6-digit code each call (3 per 10 minutes per user, 429 beyond); 429 TWO_FACTOR_LOCKED while the second step is locked.",
      body: { schema: checkCredentialsBody, types: ["json"] },
      success: { status: 200, description: "The credentials are valid.", schema: checkCredentialsResponse },
      errors: [400, 401, 413, 415, 429],
      codes: { 401: ["INVALID_CREDENTIALS", "PASSWORD_RESET_REQUIRED"], 429: ["TWO_FACTOR_LOCKED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
