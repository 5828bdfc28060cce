import { createCookie, redirect } from "react-router";
import { en, type Dictionary } from "~/i18n/en.ts";
import { env } from "./env.server.ts";

/**
 * One-time messages across a redirect ("Saved."): an action calls `redirectWithFlash`, the next
 * page shows the message once (root loader → <FlashMessage/>) and the cookie is cleared in the
 * same response. The cookie is signed, so another site cannot plant a message, and carries a key
 * of the `flash` dictionary rather than text, so the message appears in the page's language.
 */
export type FlashKind = "success" | "info" | "error";
export type FlashKey = keyof Dictionary["flash"];
export type Flash = { kind: FlashKind; key: FlashKey; id: string };

const FLASH_COOKIE = "flash";
const KINDS: readonly string[] = ["success", "info", "error"] satisfies FlashKind[];

function isFlash(value: unknown): value is Flash {
  if (typeof value !== "object" || value === null) return false;
  const { kind, key, id } = value as Record<string, unknown>;
  return typeof kind === "string" && KINDS.includes(kind) && typeof key === "string" && Object.hasOwn(en.flash, key) && typeof id === "string";
}

/** The flash cookie for a set of signing secrets (the app uses SESSION_SECRET; tests their own). */
export function createFlashStore(options: { secrets: string[]; secure: boolean }) {
  const cookie = createCookie(FLASH_COOKIE, {
    httpOnly: true,
    secure: options.secure,
    sameSite: "lax",
    path: "/",
    // Long enough to survive a redirect, short enough that a message never shows up days later.
    maxAge: 60,
    secrets: options.secrets,
  });
  return {
    /** A Set-Cookie header that shows `message` on the next page. */
    set(message: { kind: FlashKind; key: FlashKey }): Promise<string> {
      return cookie.serialize({ ...message, id: crypto.randomUUID() } satisfies Flash);
    },
    /** The pending message, if any, and the Set-Cookie header that consumes it. */
    async read(request: Request): Promise<{ flash: Flash | null; setCookie: string | null }> {
      const header = request.headers.get("cookie");
      if (!header || !header.includes(`${FLASH_COOKIE}=`)) return { flash: null, setCookie: null };
      const value: unknown = await cookie.parse(header);
      const setCookie = await cookie.serialize("", { maxAge: 0, expires: new Date(0) });
      return { flash: isFlash(value) ? value : null, setCookie };
    },
  };
}

let store: ReturnType<typeof createFlashStore> | undefined;
const flashStore = () => (store ??= createFlashStore({ secrets: [env().SESSION_SECRET], secure: env().APP_URL.startsWith("https://") }));

export const readFlash = (request: Request) => flashStore().read(request);
export const flashCookie = (message: { kind: FlashKind; key: FlashKey }) => flashStore().set(message);

/** Post/redirect/get with a message: `throw redirectWithFlash(paths.forms(locale), { kind: "success", key: "saved" })`. */
export async function redirectWithFlash(url: string, message: { kind: FlashKind; key: FlashKey }, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await flashCookie(message));
  return redirect(url, { ...init, headers });
}
