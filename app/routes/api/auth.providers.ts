import { z } from "zod";
import { NEXTAUTH_OIDC_SIGN_IN_PATH } from "~/features/auth/nextauth.server.ts";
import { OIDC_CALLBACK_PATH, oidcProviderName } from "~/features/auth/oidc.server.ts";
import { endpoint } from "~/lib/endpoint.server.ts";
import { env } from "~/lib/env.server.ts";
import { json } from "~/lib/http.server.ts";
import { DEFAULT_LOCALE } from "~/lib/i18n.ts";

const provider = z
  .object({
    id: z.string(),
    name: z.string(),
    type: z.enum(["credentials", "oauth"]),
    signinUrl: z.string().meta({ description: "Where a browser starts signing in with this provider." }),
    callbackUrl: z.string().meta({ description: "Where the sign-in is completed." }),
  })
  .meta({ id: "AuthProvider" });

const providersResponse = z
  .object({
    credentials: provider,
    oidc: provider.optional().meta({ description: "The external OpenID Connect provider, when one is configured." }),
  })
  .meta({ id: "AuthProviders" });

/** GET /api/auth/providers: the ways to sign in, in the shape NextAuth's browser client reads (ADR 31). */
const handle = endpoint(
  {
    GET: async () => {
      const base = env().APP_URL;
      const oidcName = oidcProviderName();
      return json({
        credentials: {
          id: "credentials",
          name: "Credentials",
          type: "credentials",
          signinUrl: `${base}/${DEFAULT_LOCALE}/login`,
          callbackUrl: `${base}/api/auth/callback/credentials`,
        },
        ...(oidcName
          ? {
              oidc: {
                id: "oidc",
                name: oidcName,
                type: "oauth",
                signinUrl: `${base}${NEXTAUTH_OIDC_SIGN_IN_PATH}`,
                callbackUrl: `${base}${OIDC_CALLBACK_PATH}`,
              },
            }
          : {}),
      });
    },
  },
  {
    GET: {
      operationId: "getAuthProviders",
      tag: "Authentication",
      auth: "public",
      summary:
        "The ways to sign in, keyed by id as NextAuth's browser client expects (its signIn reads this first): credentials, and oidc when an external provider is configured.",
      success: { status: 200, description: "The providers.", schema: providersResponse },
      errors: [],
    },
  },
);

export const loader = handle;
export const action = handle;
