import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

/**
 * A real OpenID provider (panva's oidc-provider, the certified implementation) on loopback, for
 * the sign-in tests. It has one confidential client, the service, with its callback URL and
 * PKCE required; the development login and consent pages (`devInteractions`) let a test sign in
 * with plain HTTP by typing an account id (tests/support/oidc-client.ts drives them).
 *
 * The issuer is http://localhost:PORT while the service runs on 127.0.0.1, so the two are
 * different sites for a browser and the callback is a real cross-site navigation.
 */
export const OIDC_CLIENT_ID = "assessment-service";
// Letters and digits only: the client authenticates with HTTP Basic, whose encoding of other
// characters providers disagree about.
export const OIDC_CLIENT_SECRET = "testClientSecret0123456789abcdefABCDEF";
export const OIDC_PROVIDER_NAME = "Test Identity Provider";

export type ProviderAccount = { email?: string; email_verified?: boolean };

/** The accounts every run has; tests add their own with registerProviderAccount (oidc-client.ts). */
const FIXED_ACCOUNTS: Record<string, ProviderAccount> = {
  // A seeded user, vouched for.
  teacher2: { email: "teacher2@demo.test", email_verified: true },
  // A seeded user's address the provider does not vouch for: never enough to sign in.
  unverified: { email: "teacher@demo.test", email_verified: false },
  // Vouched for, but nobody here has it.
  unknown: { email: "nobody@unknown.test", email_verified: true },
};

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

export async function startOidcProvider(appUrl: string): Promise<{ issuer: string; close: () => Promise<void> }> {
  const accounts = new Map<string, ProviderAccount>(Object.entries(FIXED_ACCOUNTS));
  const servers = [createServer()];
  await listen(servers[0]!, 0, "127.0.0.1");
  const { port } = servers[0]!.address() as AddressInfo;
  // Where localhost means ::1 first, answer there too.
  const ipv6 = createServer();
  try {
    await listen(ipv6, port, "::1");
    servers.push(ipv6);
  } catch {
    // no IPv6 loopback here
  }
  const issuer = `http://localhost:${port}`;

  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: "test-signing-key", alg: "RS256", use: "sig" };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT_ID,
        client_secret: OIDC_CLIENT_SECRET,
        redirect_uris: [`${appUrl}/api/auth/oidc/callback`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: true } },
    claims: { openid: ["sub"], email: ["email", "email_verified"] },
    jwks: { keys: [signingKey] },
    cookies: { keys: ["test-provider-cookie-key-0123456789"] },
    ttl: { AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
  });
  const handle = provider.callback();

  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    // Test-only: POST /test/accounts {sub, email, email_verified} adds an account.
    if (request.method === "POST" && request.url === "/test/accounts") {
      readJson(request)
        .then((body) => {
          const { sub, ...account } = body as ProviderAccount & { sub: string };
          accounts.set(sub, account);
          response.writeHead(204).end();
        })
        .catch(() => response.writeHead(400).end());
      return;
    }
    void handle(request, response);
  };
  for (const server of servers) server.on("request", onRequest);

  return {
    issuer,
    close: async () => {
      await Promise.all(servers.map(close));
    },
  };
}
