import { z } from "zod";
import { newPasswordSchema } from "~/features/auth/password-policy.server.ts";
import { missingAs } from "~/lib/schemas.ts";

/** Bodies of the forgotten-password, reset and change-password endpoints (decision 0006). */

export const forgotPasswordBody = z
  .strictObject({
    email: z.string(missingAs("emailRequired")).trim().min(1, "emailRequired").max(254),
  })
  .meta({ id: "ForgotPassword" });

export const resetPasswordBody = z
  .strictObject({
    token: z.string().min(1, "required").max(200).meta({ description: "The token of the e-mailed link." }),
    password: newPasswordSchema,
  })
  .meta({ id: "ResetPassword" });

export const changePasswordBody = z
  .strictObject({
    currentPassword: z.string(missingAs("currentPasswordRequired")).min(1, "currentPasswordRequired").max(1024),
    newPassword: newPasswordSchema,
  })
  .meta({ id: "ChangePassword" });

export type ForgotPasswordInput = z.output<typeof forgotPasswordBody>;
export type ResetPasswordInput = z.output<typeof resetPasswordBody>;
export type ChangePasswordInput = z.output<typeof changePasswordBody>;

export const forgotPasswordResponse = z
  .object({ ok: z.literal(true), message: z.string() })
  .meta({ id: "ForgotPasswordResult", description: "The same answer whether or not the address is known." });

export const passwordSetResponse = z.object({ ok: z.literal(true) }).meta({ id: "PasswordSet" });
