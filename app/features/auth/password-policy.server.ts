import { z } from "zod";
import commonPasswordsText from "./common-passwords.txt?raw";
import { DEFAULT_DEVELOPMENT_PASSWORD } from "./credentials.server.ts";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "~/lib/auth/password.server.ts";

/**
 * The rules for every NEW password (reset, change, invitation, POST /api/users), after NIST
 * SP 800-63B §3.1.1.2: 8 to 128 characters counted as Unicode code points of the NFKC form that is
 * hashed, any character allowed, no composition rules, and refused when it is a common password,
 * the default development password, or the account's own e-mail address. Existing passwords are
 * never checked against these rules at sign-in (only the development password, in production).
 */

/** Compared after the same NFKC normalization as hashing, and without regard to case. */
const comparable = (password: string) => password.normalize("NFKC").toLowerCase();

let commonPasswords: Set<string> | undefined;

/** The shipped list (common-passwords.txt, built by scripts/build-common-passwords.ts), read once. */
function commonPasswordSet(): Set<string> {
  commonPasswords ??= new Set(
    commonPasswordsText
      .split("\n")
      .map((line) => line.trimEnd())
      .filter((line) => line !== "" && !line.startsWith("#")),
  );
  return commonPasswords;
}

export const isCommonPassword = (password: string) => commonPasswordSet().has(comparable(password));

const codePoints = (password: string) => [...password.normalize("NFKC")].length;

/**
 * No 128-code-point password is longer than this many UTF-16 units even after NFKC, so anything
 * longer is refused before it is normalized or looked at at all.
 */
const CHEAP_LENGTH_GUARD = PASSWORD_MAX_LENGTH * 16;

// Messages are dictionary keys (app/lib/messages.ts) with their values.
const tooShort = { message: "tooShort", params: { values: [String(PASSWORD_MIN_LENGTH)] }, abort: true };
const tooLong = { message: "tooLong", params: { values: [String(PASSWORD_MAX_LENGTH)] }, abort: true };

/** The one schema for a new password; used by every body that sets one. */
export const newPasswordSchema = z
  .string()
  .refine((value) => value.length <= CHEAP_LENGTH_GUARD, tooLong)
  .refine((value) => codePoints(value) >= PASSWORD_MIN_LENGTH, tooShort)
  .refine((value) => codePoints(value) <= PASSWORD_MAX_LENGTH, tooLong)
  .refine((value) => !isCommonPassword(value), { message: "passwordCommon", abort: true })
  .refine((value) => comparable(value) !== comparable(DEFAULT_DEVELOPMENT_PASSWORD), { message: "passwordDevelopment", abort: true })
  .meta({
    description:
      `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters (Unicode code points), any characters. ` +
      "Refused when it is a common password, the development password or the account's e-mail address.",
    minLength: PASSWORD_MIN_LENGTH,
    maxLength: PASSWORD_MAX_LENGTH,
  });

/** True when the password is the account's e-mail address, or the part before the @. */
export function passwordMatchesEmail(password: string, email: string): boolean {
  const candidate = comparable(password).trim();
  const address = comparable(email).trim();
  const localPart = address.split("@")[0] ?? "";
  return candidate === address || (localPart !== "" && candidate === localPart);
}
