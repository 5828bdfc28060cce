import { randomBytes, timingSafeEqual } from "node:crypto";
import { createRemoteJWKSet, type JWTVerifyGetKey } from "jose";
import { createCookie } from "react-router";
import { Authenticator } from "remix-auth";
import { CodeChallengeMethod, OAuth2Strategy } from "remix-auth-oauth2";
import { z } from "zod";
import { db } from "~/lib/db.server.ts";
import { env } from "~/lib/env.server.ts";
import { LOCALES, resolveLocale, type Locale } from "~/lib/i18n.ts";
import { ApiError } from "~/lib/problem.server.ts";
import { IdTokenError, verifyIdToken, type IdTokenClaims } from "./id-token.server.ts";

/**
 * Sign-in with the one external OpenID Connect provider configured by OIDC_ISSUER,
 * OIDC_CLIENT_ID and OIDC_CLIENT_SECRET (docs/decisions/0008-openid-connect.md).
 *
 * remix-auth-oauth2 does the OAuth 2.0 part: the authorization URL with `state` and a PKCE S256
 * challenge, and the code exchange with the client secret. This module adds what OpenID Connect
 * and this service need on top: discovery, a nonce, one signed state cookie per sign-in that is
 * used once, verification of the ID token, and the rules for who may come in.
 */
export const OIDC_START_PATH = "/api/auth/oidc";
export const OIDC_CALLBACK_PATH = "/api/auth/oidc/callback";
export const OIDC_STATE_COOKIE_NAME = "remix-auth.oidc-state";
/** How long a started sign-in may take at the provider. */
const FLOW_MAX_AGE_SECONDS = 10 * 60;
const FETCH_TIMEOUT_MS = 10_000;

/** Why a sign-in was refused; each has its own message on the error page. */
export const OIDC_FAILURES = [
  "state", // no, an expired, a used or a different state cookie: start again
  "cancelled", // the person (or the provider) declined at the provider
  "provider", // the provider answered with an error, or the code exchange failed
  "token", // the ID token or the user info did not check out (signature, issuer, audience, nonce…)
  "unverified", // the provider does not vouch for the e-mail address
  "no-account", // no active account here has that e-mail address
  "second-factor", // the account uses this service's second factor: password and code only
  "linked-elsewhere", // the account is already linked to another identity at this provider
  "unavailable", // the provider could not be reached or is misconfigured
] as const;
export type OidcFailure = (typeof OIDC_FAILURES)[number];

export class OidcSignInError extends Error {
  override name = "OidcSignInError";
  constructor(
    readonly reason: OidcFailure,
    /** For the log only. */
    detail: string,
  ) {
    super(detail);
  }
}

export function oidcConfigured(): boolean {
  return Boolean(env().OIDC_ISSUER && env().OIDC_CLIENT_ID && env().OIDC_CLIENT_SECRET);
}

export const oidcNotConfigured = () => new ApiError(404, "OIDC_NOT_CONFIGURED", "Sign-in with an external provider is not configured on this server.");

/** The provider's name for the "Sign in with …" button, or null when OIDC is not configured. */
export function oidcProviderName(): string | null {
  return oidcConfigured() ? env().OIDC_PROVIDER_NAME : null;
}

function settings() {
  const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET, APP_URL } = env();
  if (!OIDC_ISSUER || !OIDC_CLIENT_ID || !OIDC_CLIENT_SECRET) throw new Error("OpenID Connect is not configured.");
  return {
    issuer: OIDC_ISSUER,
    clientId: OIDC_CLIENT_ID,
    clientSecret: OIDC_CLIENT_SECRET,
    // Always from APP_URL, never from the request's Host.
    redirectUri: `${APP_URL}${OIDC_CALLBACK_PATH}`,
  };
}

// ---- the state cookie ----

/**
 * What one sign-in needs to remember between the two legs. Signed with SESSION_SECRET (so it
 * cannot be forged or edited), HttpOnly, Secure, SameSite=Lax (the provider sends the browser
 * back with a cross-site top-level GET, which carries Lax cookies but not Strict ones), and only
 * sent to /api/auth/oidc and its callback.
 */
const flowSchema = z.object({
  state: z.string().min(1),
  codeVerifier: z.string().min(1),
  nonce: z.string().min(1),
  locale: z.enum(LOCALES).nullable(),
  issuedAt: z.number(),
});
type Flow = z.infer<typeof flowSchema>;

let stateCookie: ReturnType<typeof createCookie> | undefined;
function flowCookie() {
  stateCookie ??= createCookie(OIDC_STATE_COOKIE_NAME, {
    httpOnly: true,
    secure: true,
    sameSite: "lax",
    path: OIDC_START_PATH,
    maxAge: FLOW_MAX_AGE_SECONDS,
    secrets: [env().SESSION_SECRET],
  });
  return stateCookie;
}

/** The sign-in this browser started, or null (none, forged, edited or expired). */
async function readFlow(request: Request): Promise<Flow | null> {
  const value: unknown = await flowCookie().parse(request.headers.get("cookie"));
  const parsed = flowSchema.safeParse(value);
  if (!parsed.success) return null;
  // The browser drops the cookie after Max-Age; a copy kept elsewhere must not outlive it either.
  if (Date.now() - parsed.data.issuedAt > FLOW_MAX_AGE_SECONDS * 1000) return null;
  return parsed.data;
}

/** Deletes the state cookie: every callback uses up the sign-in it belongs to. */
export function clearOidcStateCookie(): Promise<string> {
  return flowCookie().serialize("", { expires: new Date(0), maxAge: 0 });
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

// ---- discovery ----

const metadataSchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.url(),
  token_endpoint: z.url(),
  jwks_uri: z.url(),
  userinfo_endpoint: z.url().optional(),
  id_token_signing_alg_values_supported: z.array(z.string()).optional(),
  authorization_response_iss_parameter_supported: z.boolean().optional(),
});
type ProviderMetadata = z.infer<typeof metadataSchema>;

type Provider = { authenticator: Authenticator<SignedInUser> };

let discovered: Promise<Provider> | undefined;

/** The provider's configuration, fetched once per process; a failure is retried on the next sign-in. */
function provider(): Promise<Provider> {
  discovered ??= discover().catch((error: unknown) => {
    discovered = undefined;
    throw error;
  });
  return discovered;
}

async function discover(): Promise<Provider> {
  const { issuer } = settings();
  const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const response = await fetch(url, { headers: { Accept: "application/json" }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!response.ok) throw new Error(`OpenID discovery at ${url} answered ${response.status}.`);
  const metadata = metadataSchema.parse(await response.json());
  // OpenID Connect Discovery §4.3: the document must name exactly the issuer we asked.
  if (metadata.issuer !== issuer) {
    throw new Error(`OpenID discovery at ${url} names the issuer ${metadata.issuer}, not OIDC_ISSUER (${issuer}).`);
  }
  if (issuer.startsWith("https:")) {
    for (const endpoint of [metadata.authorization_endpoint, metadata.token_endpoint, metadata.jwks_uri, metadata.userinfo_endpoint]) {
      if (endpoint && !endpoint.startsWith("https:")) throw new Error(`OpenID discovery lists a plain-HTTP endpoint: ${endpoint}`);
    }
  }
  const keys = createRemoteJWKSet(new URL(metadata.jwks_uri), { timeoutDuration: FETCH_TIMEOUT_MS });
  const strategy = new OpenIdConnectStrategy(metadata, (options) => verifyAccount(options, metadata, keys));
  return { authenticator: new Authenticator<SignedInUser>().use(strategy) };
}

// ---- the strategy ----

type SignedInUser = { userId: string; locale: Locale };

class OpenIdConnectStrategy extends OAuth2Strategy<SignedInUser> {
  override name = "oidc";

  constructor(
    private readonly metadata: ProviderMetadata,
    verify: (options: OAuth2Strategy.VerifyOptions) => Promise<SignedInUser>,
  ) {
    const { clientId, clientSecret, redirectUri } = settings();
    super(
      {
        clientId,
        clientSecret,
        authorizationEndpoint: metadata.authorization_endpoint,
        tokenEndpoint: metadata.token_endpoint,
        redirectURI: redirectUri,
        scopes: ["openid", "email"],
        codeChallengeMethod: CodeChallengeMethod.S256,
      },
      verify,
    );
  }

  /** The first leg: the provider's URL (state, PKCE S256, nonce) and the cookie that remembers them. */
  async begin(locale: Locale | undefined): Promise<{ url: string; setCookie: string }> {
    const { state, codeVerifier, url } = this.createAuthorizationURL();
    const nonce = randomBytes(32).toString("base64url");
    url.searchParams.set("nonce", nonce);
    const flow: Flow = { state, codeVerifier, nonce, locale: locale ?? null, issuedAt: Date.now() };
    return { url: url.toString(), setCookie: await flowCookie().serialize(flow) };
  }

  /**
   * The second leg, in place of the library's own: its state cookie is neither signed nor removed
   * after use, and OpenID Connect needs the nonce besides. The state must match the signed cookie,
   * the answer must come from our issuer (RFC 9207 `iss`), then the code is exchanged with the PKCE
   * verifier and the verify function checks the ID token and the account.
   */
  override async authenticate(request: Request): Promise<SignedInUser> {
    const params = new URL(request.url).searchParams;
    const flow = await readFlow(request);
    const state = params.get("state");
    if (!flow) throw new OidcSignInError("state", "No valid state cookie: not started here, expired or already used.");
    if (!state || !sameString(state, flow.state)) throw new OidcSignInError("state", "The state does not match the cookie.");
    const iss = params.get("iss");
    if (iss !== null ? iss !== this.metadata.issuer : this.metadata.authorization_response_iss_parameter_supported === true) {
      throw new OidcSignInError("provider", `The authorization response names the issuer ${iss ?? "(none)"}.`);
    }
    const error = params.get("error");
    if (error) {
      throw new OidcSignInError(error === "access_denied" ? "cancelled" : "provider", `The provider answered ${error}.`);
    }
    const code = params.get("code");
    if (!code) throw new OidcSignInError("provider", "The authorization response has no code.");
    let tokens: OAuth2Strategy.VerifyOptions["tokens"];
    try {
      tokens = await this.validateAuthorizationCode(code, flow.codeVerifier);
    } catch (cause) {
      throw new OidcSignInError("provider", `The code exchange failed: ${String(cause)}`);
    }
    return this.verify({ request, tokens });
  }
}

// ---- who may come in ----

const emailClaims = z.object({
  sub: z.string().optional(),
  email: z.string().trim().toLowerCase().max(254).optional().catch(undefined),
  email_verified: z.unknown().optional(),
});

/** The e-mail address and whether the provider vouches for it: from the ID token, else from UserInfo. */
async function emailOf(claims: IdTokenClaims, accessToken: string | null, metadata: ProviderMetadata) {
  let source = emailClaims.parse(claims);
  if ((source.email === undefined || source.email_verified === undefined) && metadata.userinfo_endpoint && accessToken) {
    const response = await fetch(metadata.userinfo_endpoint, {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!response.ok) throw new OidcSignInError("token", `UserInfo answered ${response.status}.`);
    const userInfo = emailClaims.safeParse(await response.json().catch(() => null));
    // OIDC Core §5.3.2: the UserInfo answer is only about this person if its sub is the token's.
    if (!userInfo.success || userInfo.data.sub !== claims.sub) throw new OidcSignInError("token", "UserInfo is about another subject.");
    source = userInfo.data;
  }
  // Only the JSON boolean counts: a provider that says "true" as a string does not vouch for it.
  return { email: source.email, verified: source.email_verified === true };
}

const userFields = { id: true, locale: true, isActive: true, deletedAt: true, twoFactorMethod: true } as const;
type CandidateUser = { id: string; locale: string; isActive: boolean; deletedAt: Date | null; twoFactorMethod: string | null };

function admit(user: CandidateUser | null | undefined): asserts user is CandidateUser {
  if (!user || !user.isActive || user.deletedAt) throw new OidcSignInError("no-account", "No active account.");
  // A second factor the person turned on here is never skipped by another way in.
  if (user.twoFactorMethod) throw new OidcSignInError("second-factor", "The account uses a second factor.");
}

/**
 * The account this identity signs in to: the one linked to (issuer, subject), else the active one
 * with the verified e-mail address, which is then linked so that later sign-ins find it even after
 * either e-mail address changes. An account linked to another subject at the same issuer is not
 * linked a second time (a recycled address at the provider must not inherit it).
 */
async function findAccount(issuer: string, subject: string, email: { email: string | undefined; verified: boolean }) {
  const linked = await db.externalAccount.findUnique({
    where: { issuer_subject: { issuer, subject } },
    select: { user: { select: userFields } },
  });
  if (linked) {
    admit(linked.user);
    return linked.user;
  }
  if (!email.email || !email.verified) throw new OidcSignInError("unverified", "The provider does not vouch for the e-mail address.");
  const user = await db.user.findFirst({ where: { email: email.email, deletedAt: null }, select: userFields });
  admit(user);
  const other = await db.externalAccount.findFirst({ where: { userId: user.id, issuer }, select: { id: true } });
  if (other) throw new OidcSignInError("linked-elsewhere", "The account is linked to another subject at this issuer.");
  try {
    await db.externalAccount.create({ data: { userId: user.id, issuer, subject } });
  } catch (error) {
    // Two first sign-ins at once: the other one linked it; fine if it linked the same account.
    const now = await db.externalAccount.findUnique({ where: { issuer_subject: { issuer, subject } }, select: { userId: true } });
    if (now?.userId !== user.id) throw error;
  }
  return user;
}

async function verifyAccount({ request, tokens }: OAuth2Strategy.VerifyOptions, metadata: ProviderMetadata, keys: JWTVerifyGetKey): Promise<SignedInUser> {
  const { issuer, clientId } = settings();
  // authenticate() has checked the cookie already; it holds the nonce and the locale.
  const flow = await readFlow(request);
  if (!flow) throw new OidcSignInError("state", "The state cookie went away.");
  const idToken = typeof (tokens.data as { id_token?: unknown }).id_token === "string" ? tokens.idToken() : null;
  if (!idToken) throw new OidcSignInError("token", "The token response has no ID token.");
  let claims: IdTokenClaims;
  try {
    claims = await verifyIdToken(idToken, {
      issuer,
      clientId,
      keys,
      nonce: flow.nonce,
      ...(metadata.id_token_signing_alg_values_supported ? { algorithms: metadata.id_token_signing_alg_values_supported } : {}),
    });
  } catch (error) {
    if (error instanceof IdTokenError) throw new OidcSignInError("token", error.message);
    throw error;
  }
  const accessToken = typeof (tokens.data as { access_token?: unknown }).access_token === "string" ? tokens.accessToken() : null;
  const user = await findAccount(issuer, claims.sub, await emailOf(claims, accessToken, metadata));
  return { userId: user.id, locale: flow.locale ?? resolveLocale(user.locale) };
}

// ---- the two legs, for the routes ----

/** Where to send the browser to sign in at the provider, and the state cookie to set. */
export async function beginOidcSignIn(locale: Locale | undefined): Promise<{ url: string; setCookie: string }> {
  const { authenticator } = await provider();
  const strategy = authenticator.get("oidc") as OpenIdConnectStrategy;
  return strategy.begin(locale);
}

/** Checks the provider's answer; the signed-in user and the locale to land in, or why not. */
export async function completeOidcSignIn(request: Request): Promise<SignedInUser> {
  let authenticator: Authenticator<SignedInUser>;
  try {
    ({ authenticator } = await provider());
  } catch (error) {
    throw new OidcSignInError("unavailable", `Discovery failed: ${String(error)}`);
  }
  return authenticator.authenticate("oidc", request);
}

/** The locale a failed callback should answer in: the one the sign-in started with, if any. */
export async function flowLocale(request: Request): Promise<Locale> {
  return resolveLocale((await readFlow(request))?.locale);
}

// ---- the query parameters of the two routes (validated, and rendered into the OpenAPI document) ----

export const oidcStartQuery = z.object({
  locale: z.enum(LOCALES).optional().meta({ description: "The language to land in after signing in (default: the account's)." }),
});

/** What the provider sends back (RFC 6749 §4.1.2, RFC 9207); read by the strategy, listed for the document. */
export const oidcCallbackQuery = z.object({
  code: z.string().optional().meta({ description: "The authorization code." }),
  state: z.string().optional().meta({ description: "Must match the state kept in the remix-auth.oidc-state cookie." }),
  iss: z.string().optional().meta({ description: "The issuer that answered (RFC 9207); must be OIDC_ISSUER." }),
  error: z.string().optional().meta({ description: "The provider's error code, instead of a code." }),
  error_description: z.string().optional().meta({ description: "The provider's explanation of the error (not shown)." }),
});
