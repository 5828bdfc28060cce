import { BENCH_PASSWORD } from "./dataset.ts";

/** Signs a bench user in through the API, as a client would: the cookies to send and the CSRF token. */
export async function signIn(serverUrl: string, email: string): Promise<{ cookie: string; csrfToken: string }> {
  const csrfResponse = await fetch(`${serverUrl}/api/auth/csrf`);
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const csrfCookie = csrfResponse.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const response = await fetch(`${serverUrl}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: csrfCookie, "X-CSRF-Token": csrfToken },
    body: JSON.stringify({ email, password: BENCH_PASSWORD, csrfToken }),
  });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const session = response.headers.getSetCookie().find((c) => c.startsWith("remix-auth.session-token="));
  if (!session) throw new Error("sign-in set no session cookie");
  return { cookie: `${session.split(";")[0]}; ${csrfCookie}`, csrfToken };
}
