import { z } from "zod";
import { newPasswordSchema, passwordMatchesEmail } from "~/features/auth/password-policy.server.ts";
import { LOCALES } from "~/lib/i18n.ts";
import { emailSchema, idSchema, optionalText, singleLineText, timestamp } from "~/lib/schemas.ts";
import { STUDENT_STATUSES } from "../students/student-statuses.ts";

export const ROLES = ["SUPER_ADMIN", "ADMIN", "TEACHER", "STUDENT"] as const;

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;

export const updateProfileBody = z
  .strictObject({
    name: singleLineText(200),
    email: emailSchema.optional(),
    currentPassword: z.string().max(1024).optional().meta({ description: "The caller's current password; required when `email` changes." }),
    phone: optionalText(50),
    specialty: optionalText(200).meta({ description: "Teachers only." }),
    age: z.number().int().min(0).max(150).nullable().optional().meta({ description: "Students only." }),
    grade: optionalText(50).meta({ description: "Students only." }),
    gender: optionalText(50).meta({ description: "Students only." }),
    image: z
      .file()
      .max(AVATAR_MAX_BYTES)
      .mime([...AVATAR_TYPES])
      .optional()
      .meta({ description: "PNG, JPEG or WebP, at most 2 MiB (multipart only)." }),
  })
  .meta({ id: "ProfileUpdate" });

export type UpdateProfileInput = z.output<typeof updateProfileBody>;

export const createUserBody = z
  .strictObject({
    email: emailSchema,
    name: singleLineText(200),
    role: z.enum(ROLES),
    password: newPasswordSchema.optional().meta({
      description:
        "8 to 128 characters, not a common password, the development password or the e-mail address. " +
        "Leave out to e-mail the user an invitation with a link to choose one (valid 72 hours).",
    }),
    phone: optionalText(50),
    specialty: optionalText(200).meta({ description: "Teachers only." }),
    organizationId: idSchema.optional().meta({ description: "SUPER_ADMIN only; defaults to the caller's." }),
    locale: z.enum(LOCALES).optional().meta({ description: "The user's language for e-mails (default en)." }),
  })
  .superRefine((input, ctx) => {
    if (input.password !== undefined && passwordMatchesEmail(input.password, input.email)) {
      ctx.addIssue({ code: "custom", path: ["password"], message: "passwordIsEmail" });
    }
  })
  .meta({ id: "UserCreate" });

export type CreateUserInput = z.output<typeof createUserBody>;

export const profileResponse = z
  .object({
    id: idSchema,
    email: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    phone: z.string().nullable(),
    image: z.string().nullable().meta({ description: "URL of the avatar image." }),
    organization: z.object({ id: idSchema, name: z.string() }),
    teacher: z.object({ id: idSchema, specialty: z.string().nullable() }).nullable(),
    student: z
      .object({
        id: idSchema,
        age: z.number().int().nullable(),
        grade: z.string().nullable(),
        gender: z.string().nullable(),
        status: z.enum(STUDENT_STATUSES),
      })
      .nullable(),
    twoFactorEnabled: z.boolean(),
    twoFactorMethod: z.enum(["TOTP", "EMAIL"]).nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: "Profile" });

export const roleResponse = z.object({ role: z.enum(ROLES) }).meta({ id: "Role" });
