import { crc32, deflateSync } from "node:zlib";
import { expect } from "vitest";
import { api, signIn, unique, type ApiResponse, type DemoUser } from "./api.ts";
import { testDatabase } from "./database.ts";

/**
 * A real PNG built byte by byte: signature, IHDR, one IDAT of deflated scanlines and IEND, each
 * chunk with its CRC. `width` × `height` RGBA pixels of one colour.
 */
export function png(width = 1, height = 1, rgba: [number, number, number, number] = [26, 127, 55, 255]): Uint8Array<ArrayBuffer> {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const typeAndData = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typeAndData));
    return Buffer.concat([length, typeAndData, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type RGBA
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgba).flat())]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const bytes = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(pixels)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  return new Uint8Array(bytes);
}

/** The id of the organization a demo user belongs to, read through the API. */
export async function organizationIdOf(user: DemoUser): Promise<string> {
  const profile = await api("GET", "/api/user/profile", { as: user });
  expect(profile.status).toBe(200);
  return profile.body.organization.id as string;
}

/** Problem details as docs/api-contract.md §1 defines them, with the status of the response. */
export function expectProblem(response: ApiResponse, status: number, code?: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(response.body).toMatchObject({
    type: expect.any(String),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    code: code ?? expect.stringMatching(/^[A-Z][A-Z0-9_]*$/),
  });
  for (const key of Object.keys(response.body)) expect(["type", "title", "status", "detail", "code", "errors"]).toContain(key);
}

/** The dotted field paths a 400 names. */
export const errorPaths = (response: ApiResponse): string[] => ((response.body?.errors ?? []) as { path: string }[]).map((error) => error.path);

export type CreatedUser = { id: string; email: string; password: string; cookie: string; profile: any };

/** A fresh login created by an administrator and signed in, for tests that change a profile. */
export async function createSignedInUser(
  role: "TEACHER" | "STUDENT" | "ADMIN",
  options: { as?: DemoUser; organizationId?: string; specialty?: string } = {},
): Promise<CreatedUser> {
  const email = `${unique(role.toLowerCase())}@fixtures.test`;
  const password = `pw-${unique("secret")}`;
  const created = await api("POST", "/api/users", {
    as: options.as ?? "admin@demo.test",
    json: {
      email,
      name: `Fixture ${role.toLowerCase()} ${unique("n")}`,
      role,
      password,
      ...(options.organizationId ? { organizationId: options.organizationId } : {}),
      ...(options.specialty ? { specialty: options.specialty } : {}),
    },
  });
  expect(created.status, created.text).toBe(201);
  return { id: created.body.id, email, password, cookie: await signIn(email, password), profile: created.body };
}

/** An organization of the test's own, with a signed-in administrator and teacher: no other file's records meet its. */
export type OwnOrganization = { id: string; admin: string; teacher: string; teacherId: string };

export async function createOrganization(label: string): Promise<OwnOrganization> {
  const organization = await testDatabase().organization.create({ data: { name: unique(label) } });
  const [admin, teacher] = await Promise.all([
    createSignedInUser("ADMIN", { as: "superadmin@demo.test", organizationId: organization.id }),
    createSignedInUser("TEACHER", { as: "superadmin@demo.test", organizationId: organization.id }),
  ]);
  return { id: organization.id, admin: admin.cookie, teacher: teacher.cookie, teacherId: teacher.id };
}
