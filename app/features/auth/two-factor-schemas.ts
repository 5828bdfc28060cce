import { z } from "zod";
import { missingAs } from "~/lib/schemas.ts";

/**
 * The second factor's inputs and answers (two-factor.server.ts): the enrolment endpoints under
 * /api/auth/two-factor, the profile's second-factor page and the sign-in page's code step read
 * the same schemas.
 */
const methodSchema = z.enum(["TOTP", "EMAIL"]);
/** A six-digit code. Authenticator apps show "123 456": the space is not part of the code. */
const sixDigitCode = z
  .string(missingAs("code"))
  .transform((value) => value.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "code"));

/** The sign-in page's second step: the code alone (the pending cookie stands for the password). */
export const signInCodeForm = z.object({ code: sixDigitCode });

export const twoFactorSetupBody = z
  .strictObject({ method: methodSchema.meta({ description: "TOTP (an authenticator app) or EMAIL (a code by e-mail at each sign-in)." }) })
  .meta({ id: "TwoFactorSetup" });

export const twoFactorEnableBody = z
  .strictObject({ code: sixDigitCode.meta({ description: "A current code from the app, or the code e-mailed by setup." }) })
  .meta({ id: "TwoFactorEnable" });

export const twoFactorDisableBody = z
  .strictObject({ password: z.string(missingAs("passwordRequired")).min(1, "passwordRequired").max(1024) })
  .meta({ id: "TwoFactorDisable" });

export const twoFactorSetupResponse = z
  .discriminatedUnion("method", [
    z.object({
      method: z.literal("TOTP"),
      secret: z.string().meta({ description: "Base32 secret for typing into the app; shown only here, never again." }),
      otpauthUrl: z.string().meta({ description: "otpauth://totp/… URI (SHA1, 6 digits, 30 s)." }),
      qrCode: z.string().meta({ description: "The otpauth URI as a PNG data URL (data:image/png;base64,…)." }),
      expiresAt: z.iso.datetime().meta({ description: "Confirm with POST /api/auth/two-factor/enable before this." }),
    }),
    z.object({
      method: z.literal("EMAIL"),
      sentTo: z.string().meta({ description: "The address the confirmation code went to." }),
      expiresAt: z.iso.datetime().meta({ description: "The code is valid until then." }),
    }),
  ])
  .meta({ id: "TwoFactorSetupResult" });

export const twoFactorStatusResponse = z.object({ twoFactorEnabled: z.boolean(), twoFactorMethod: methodSchema.nullable() }).meta({ id: "TwoFactorStatus" });

export type TwoFactorSetupResult = z.output<typeof twoFactorSetupResponse>;
export type TwoFactorStatus = z.output<typeof twoFactorStatusResponse>;
