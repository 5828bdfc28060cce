// Creates a new installation: the database (migrated), its first organization and that
// organization's administrator, who chooses a password through a one-time link (72 hours).
//
//   npm run setup -- --org "Escola Municipal Aurora" --admin-email ana@aurora.example \
//                    --time-zone America/Sao_Paulo [--kind school|clinic] [--name "Ana Souza"] [--language pt-BR] [--print-link]
//
// The link is e-mailed through SMTP_URL, or printed with --print-link (for a first installation
// whose mail is not set up yet; the link is a secret: give it to the administrator only). `--kind
// clinic` makes its pages, e-mails and PDFs say patients where a school's say students (default
// school; administrators can change it later in the organization's settings).
// Configuration comes from the environment, as for `npm start` (DATABASE_URL, ENCRYPTION_KEY, ...).
// Refuses a database that already has an organization. This is the only command that creates a
// production database (docs/decisions/0016-operating-the-service.md).

import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { assertNodeVersion } from "../server/node-version.ts";

assertNodeVersion();
process.chdir(path.resolve(import.meta.dirname, ".."));

const USAGE =
  'Usage: npm run setup -- --org "<organization name>" --admin-email <address> --time-zone <IANA zone, e.g. Europe/Madrid>\n' +
  '                        [--kind school|clinic] [--name "<administrator\'s name>"] [--language en|es|pt-BR] [--print-link]';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

let options: { org?: string; "admin-email"?: string; "time-zone"?: string; kind?: string; name?: string; language?: string; "print-link"?: boolean };
try {
  ({ values: options } = parseArgs({
    options: {
      org: { type: "string" },
      "admin-email": { type: "string" },
      "time-zone": { type: "string" },
      kind: { type: "string" },
      name: { type: "string" },
      language: { type: "string" },
      "print-link": { type: "boolean" },
    },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}

const { z } = await import("zod");
const { emailSchema, singleLineText } = await import("../app/lib/schemas.ts");
const { LOCALES } = await import("../app/lib/i18n.ts");
const { DEFAULT_ORGANIZATION_KIND, ORGANIZATION_KINDS } = await import("../app/features/organization/organization-kinds.ts");
const input = z
  .object({
    org: singleLineText(200),
    "admin-email": emailSchema,
    "time-zone": z.string().refine(isTimeZone, "must be an IANA time zone such as Europe/Madrid or America/Sao_Paulo"),
    kind: z
      .string()
      .transform((value) => value.toUpperCase())
      .pipe(z.enum(ORGANIZATION_KINDS, "must be school or clinic"))
      .default(DEFAULT_ORGANIZATION_KIND),
    name: singleLineText(200).optional(),
    language: z.enum(LOCALES).default("en"),
    "print-link": z.boolean().default(false),
  })
  .safeParse(options);
if (!input.success) {
  fail(`${input.error.issues.map((issue) => `--${issue.path.join(".")}: ${issue.message}`).join("\n")}\n${USAGE}`);
}
const { org, "admin-email": email, "time-zone": timeZone, kind, language, "print-link": printLink } = input.data;
const name = input.data.name ?? email.split("@")[0]!;

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return value.includes("/") || value === "UTC";
  } catch {
    return false;
  }
}

const { ConfigurationError, parseEnv } = await import("../app/lib/env.server.ts");
let env: ReturnType<typeof parseEnv>;
try {
  env = parseEnv();
} catch (error) {
  if (error instanceof ConfigurationError) fail(error.message);
  throw error;
}
process.env.NODE_ENV = env.NODE_ENV;
if (!printLink && !env.SMTP_URL) fail("SMTP_URL is not set: the invitation cannot be e-mailed. Set SMTP_URL, or add --print-link.");

const { describeDatabase } = await import("../server/database/database-url.ts");
const { providerOf, sqliteFilePath, applyPendingMigrations } = await import("../server/database/migrations.ts");
const { InstallationError, verifyEncryptionKey, withStartupLock } = await import("../server/installation.ts");
const { refreshSearchTextAfter } = await import("../server/database/search-text.ts");
const { createDatabase } = await import("../app/lib/db.server.ts");
const { foldForSearch } = await import("../app/lib/search.ts");
const { issueInvitationLink, mailInvitation } = await import("../app/features/passwords/set-password-links.server.ts");

if (providerOf(env.DATABASE_URL) === "sqlite") mkdirSync(path.dirname(sqliteFilePath(env.DATABASE_URL)), { recursive: true });

let link: string;
try {
  link = await withStartupLock(env.DATABASE_URL, async () => {
    const applied = await applyPendingMigrations(env.DATABASE_URL);
    if (applied.length > 0) console.log(`Applied ${applied.length} migration(s) to ${describeDatabase(env.DATABASE_URL)}.`);
    await refreshSearchTextAfter(env.DATABASE_URL, applied, console.log);
    const db = createDatabase(env.DATABASE_URL);
    try {
      if ((await db.organization.count()) > 0) {
        throw new InstallationError(
          `${describeDatabase(env.DATABASE_URL)} already has an organization: this installation is set up. Administrators add users from the administration pages.`,
        );
      }
      await verifyEncryptionKey(db);
      const admin = await db.$transaction(async (tx) => {
        const organization = await tx.organization.create({ data: { name: org, timeZone, kind } });
        return tx.user.create({
          data: { organizationId: organization.id, email, name, searchName: foldForSearch(`${name} ${email}`), role: "ADMIN", locale: language },
          select: { id: true, name: true, email: true, locale: true },
        });
      });
      const link = await issueInvitationLink(admin);
      if (!printLink) await mailInvitation(admin, { name: org, kind }, link);
      return link;
    } finally {
      await db.$disconnect();
    }
  });
} catch (error) {
  if (error instanceof InstallationError) fail(error.message);
  throw error;
}

console.log(`Created "${org}" (${kind === "CLINIC" ? "a clinic" : "a school"}, ${timeZone}) and its administrator ${email}.`);
if (printLink) {
  console.log("\nOne-time link for the administrator to choose a password (valid 72 hours; it is a secret):");
  console.log(`  ${link}`);
} else {
  console.log(`An invitation with a link to choose a password (valid 72 hours) was e-mailed to ${email}.`);
}
console.log("\nThen start the service with `npm start`.");
