import type { Actor } from "~/lib/auth/actor.server.ts";
import { isAdmin, organizationScope } from "~/lib/auth/actor.server.ts";
import { hashPassword } from "~/lib/auth/password.server.ts";
import { avatarUrl } from "~/lib/auth/session.server.ts";
import { db, isUniqueViolation, type Prisma } from "~/lib/db.server.ts";
import { badRequest, conflict, fieldProblem, forbidden, notFound, type FieldProblem } from "~/lib/problem.server.ts";
import { foldForSearch } from "~/lib/search.ts";
import { requireCurrentPassword } from "../passwords/passwords.server.ts";
import { sendInvitation } from "../passwords/set-password-links.server.ts";
import type { CreateUserInput, UpdateProfileInput } from "./user-schemas.ts";
import { recordAudit, recordUpdate } from "../audit/audit.server.ts";

const profileInclude = {
  organization: { select: { id: true, name: true } },
  teacher: { select: { id: true, specialty: true } },
  student: { select: { id: true, age: true, grade: true, gender: true, status: true } },
  avatar: { select: { updatedAt: true } },
} satisfies Prisma.UserInclude;

/** The profile format: never the password hash, the TOTP secret or anything session-related. */
export async function getProfile(userId: string) {
  const user = await db.user.findUnique({ where: { id: userId }, include: profileInclude });
  if (!user) throw notFound("user");
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    phone: user.phone,
    image: user.avatar ? avatarUrl(user.id, user.avatar.updatedAt) : null,
    organization: user.organization,
    teacher: user.teacher,
    student: user.student,
    twoFactorEnabled: user.twoFactorMethod !== null,
    twoFactorMethod: user.twoFactorMethod,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}

const emailTaken = () => conflict("Another account already uses this e-mail address.", "EMAIL_TAKEN");

/** The first bytes of each accepted image type; the declared Content-Type is not trusted. */
async function sniffImageType(file: File): Promise<string | null> {
  const head = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  const ascii = (from: number, to: number) => String.fromCharCode(...head.slice(from, to));
  if (head[0] === 0x89 && ascii(1, 4) === "PNG") return "image/png";
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return null;
}

export async function updateProfile(actor: Actor, input: UpdateProfileInput) {
  const problems: FieldProblem[] = [];
  if (input.specialty !== undefined && actor.role !== "TEACHER") {
    problems.push(fieldProblem("specialty", "onlyTeachers"));
  }
  for (const field of ["age", "grade", "gender"] as const) {
    if (input[field] !== undefined && actor.role !== "STUDENT") {
      problems.push(fieldProblem(field, "onlyStudents"));
    }
  }
  const imageType = input.image ? await sniffImageType(input.image) : null;
  if (input.image && !imageType) problems.push(fieldProblem("image", "imageType"));
  if (problems.length > 0) throw badRequest("Some fields do not apply to this account.", problems);
  // The e-mail address is the login name and where reset links go: changing it takes the password.
  if (input.email !== undefined && input.email !== actor.email.toLowerCase()) {
    await requireCurrentPassword(actor, input.currentPassword);
  }

  try {
    await db.$transaction(async (tx) => {
      await tx.user.update({
        where: { id: actor.userId },
        data: {
          name: input.name,
          searchName: foldForSearch(`${input.name} ${input.email ?? actor.email}`),
          ...(input.email !== undefined ? { email: input.email } : {}),
          ...(input.phone !== undefined ? { phone: input.phone } : {}),
        },
      });
      if (input.specialty !== undefined) {
        await tx.teacher.upsert({
          where: { userId: actor.userId },
          update: { specialty: input.specialty },
          create: { userId: actor.userId, organizationId: actor.organizationId, specialty: input.specialty },
        });
      }
      const studentFields = Object.fromEntries((["age", "grade", "gender"] as const).filter((f) => input[f] !== undefined).map((f) => [f, input[f]]));
      if (Object.keys(studentFields).length > 0) {
        await tx.student.updateMany({ where: { userId: actor.userId }, data: studentFields });
      }
      if (input.image && imageType) {
        const data = new Uint8Array(await input.image.arrayBuffer());
        await tx.avatar.upsert({
          where: { userId: actor.userId },
          update: { contentType: imageType, data },
          create: { userId: actor.userId, contentType: imageType, data },
        });
      }
      const { currentPassword: _, ...changed } = input;
      await recordUpdate(tx, actor, "user.updated", { id: actor.userId }, changed);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
  return getProfile(actor.userId);
}

/**
 * Creates a login. Administrators create users in their own organization and never a SUPER_ADMIN;
 * a SUPER_ADMIN may name another organization. A teacher gets a Teacher record; a student is
 * linked to the organization's student with the same e-mail, or gets a new student record.
 */
export async function createUser(actor: Actor, input: CreateUserInput) {
  if (!isAdmin(actor)) throw forbidden("Only administrators may create users.");
  if (actor.role !== "SUPER_ADMIN" && input.role === "SUPER_ADMIN") {
    throw forbidden("Only a SUPER_ADMIN may create another SUPER_ADMIN.");
  }
  if (actor.role !== "SUPER_ADMIN" && input.organizationId !== undefined) {
    throw forbidden("Only a SUPER_ADMIN may create users in another organization.");
  }
  if (input.specialty !== undefined && input.role !== "TEACHER") {
    throw badRequest("Only teachers have a specialty.", [fieldProblem("specialty", "onlyTeachers")]);
  }
  const organizationId = input.organizationId ?? actor.organizationId;
  const organization = await db.organization.findFirst({ where: { id: organizationId, deletedAt: null } });
  if (!organization) throw notFound("organization");
  if (await db.user.findUnique({ where: { email: input.email }, select: { id: true } })) throw emailTaken();

  const passwordHash = input.password ? await hashPassword(input.password) : null;
  try {
    const userId = await db.$transaction(async (tx) => {
      const user = await tx.user.create({
        data: {
          organizationId,
          email: input.email,
          name: input.name,
          searchName: foldForSearch(`${input.name} ${input.email}`),
          role: input.role,
          phone: input.phone ?? null,
          passwordHash,
          ...(input.locale ? { locale: input.locale } : {}),
        },
      });
      if (input.role === "TEACHER") {
        await tx.teacher.create({ data: { userId: user.id, organizationId, specialty: input.specialty ?? null } });
      }
      if (input.role === "STUDENT") await linkStudentRecord(tx, user.id, organizationId, input);
      await recordAudit(tx, { by: actor, action: "user.created", targetId: user.id, organizationId, details: { role: input.role, invited: !passwordHash } });
      return user.id;
    });
    // Without a password the user chooses one through an e-mailed link (the reset flow, 72 hours).
    if (!passwordHash) {
      await sendInvitation({ id: userId, name: input.name, email: input.email, locale: input.locale ?? "en" }, organization);
    }
    return await getProfile(userId);
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

async function linkStudentRecord(tx: Prisma.TransactionClient, userId: string, organizationId: string, input: CreateUserInput) {
  const existing = await tx.student.findFirst({
    where: { organizationId, email: input.email, deletedAt: null },
    select: { id: true, userId: true },
  });
  if (existing?.userId) throw conflict("This student already has a login.", "STUDENT_HAS_LOGIN");
  if (existing) {
    await tx.student.update({ where: { id: existing.id }, data: { userId } });
    return;
  }
  await tx.student.create({
    data: {
      organizationId,
      userId,
      name: input.name,
      searchName: foldForSearch(input.name),
      email: input.email,
      phone: input.phone ?? null,
    },
  });
}

/** An avatar is visible to anyone signed in to the same organization. */
export async function getAvatar(actor: Actor, userId: string) {
  const avatar = await db.avatar.findFirst({
    where: { userId, user: { deletedAt: null, ...organizationScope(actor) } },
  });
  if (!avatar) throw notFound("avatar");
  return avatar;
}
