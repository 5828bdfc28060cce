import { verifyEmailAndPassword } from "~/lib/auth/credentials.server.ts";
import { CHECK_CREDENTIALS_LIMIT, consumeRateLimit } from "~/lib/auth/rate-limit.server.ts";
import { checkCredentialsBody } from "~/lib/auth/sign-in.server.ts";
import { startSecondFactor } from "~/lib/auth/two-factor.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint({
  POST: async ({ request, context }) => {
    // Every call counts, valid or not, before the body is even looked at.
    const clientAddress = clientAddressOf(context);
    await consumeRateLimit(CHECK_CREDENTIALS_LIMIT, clientAddress);
    const { email, password } = await readJsonBody(request, checkCredentialsBody);
    const user = await verifyEmailAndPassword(email, password, clientAddress);
    // 429 while the second step is locked; EMAIL users get a fresh code (calling again re-sends it).
    await startSecondFactor(user);
    return json(
      user.twoFactorMethod ? { twoFactorRequired: true, method: user.twoFactorMethod } : { twoFactorRequired: false },
    );
  },
});

export const loader = handle;
export const action = handle;
