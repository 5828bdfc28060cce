// The demo world: two organizations with users of every role, students, candidates and scored forms.
// Used by `npm run db:seed` (scripts/seed.ts) and by the start script on an empty database.
//
// Only type imports from app/lib/db.server.ts: importing it for real would create the app's
// database singleton from the environment, and the caller passes the client it wants seeded.

import type { CandidateStatus, Database, OrganizationKind, Prisma, QuestionType, Role, StudentStatus } from "../app/lib/db.server.ts";
import { hashPassword } from "../app/lib/auth/password.server.ts";
import { foldForSearch } from "../app/lib/search.ts";

type Tx = Prisma.TransactionClient;

export type DemoLogin = { email: string; role: Role; organization: string; name: string };

const DEMO_SCHOOL = "Demo School";
const OTHER_CLINIC = "Other Clinic";

/** Every seeded user; they all get the seed password. */
export const DEMO_LOGINS: readonly DemoLogin[] = [
  { email: "superadmin@demo.test", role: "SUPER_ADMIN", organization: DEMO_SCHOOL, name: "Helena Vasconcelos" },
  { email: "admin@demo.test", role: "ADMIN", organization: DEMO_SCHOOL, name: "Marta Ribeiro" },
  { email: "teacher@demo.test", role: "TEACHER", organization: DEMO_SCHOOL, name: "Inês Carvalho" },
  { email: "teacher2@demo.test", role: "TEACHER", organization: DEMO_SCHOOL, name: "Tomás Lindqvist" },
  { email: "student@demo.test", role: "STUDENT", organization: DEMO_SCHOOL, name: "Mateo García" },
  { email: "admin@other.test", role: "ADMIN", organization: OTHER_CLINIC, name: "Amara Okafor" },
  { email: "teacher@other.test", role: "TEACHER", organization: OTHER_CLINIC, name: "Noah Bergström" },
];

const SPECIALTIES: Record<string, string> = {
  "teacher@demo.test": "Reading and literacy",
  "teacher2@demo.test": "School psychology",
  "teacher@other.test": "Child and adolescent psychology",
};

/** True when no organization exists yet (deleted ones count), i.e. the seed may run. */
export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  return (await db.organization.count()) === 0;
}

/**
 * Creates the whole demo world in one transaction, so a failure leaves the database empty and the
 * seed can simply be run again. Call it on an empty database only (see isDatabaseEmpty): the
 * demo e-mail addresses are unique across the service.
 */
export async function seedDemoWorld(db: Database, options: { password: string; log?: (line: string) => void }): Promise<void> {
  const log = options.log ?? (() => {});
  // One hash per user so every user has a salt of its own; scrypt runs on the libuv thread pool.
  const hashes = new Map(await Promise.all(DEMO_LOGINS.map(async (login) => [login.email, await hashPassword(options.password)] as const)));

  await db.$transaction(
    async (tx) => {
      for (const world of [demoSchool, otherClinic]) {
        const summary = await createOrganization(tx, world, hashes);
        log(summary);
      }
    },
    { maxWait: 10_000, timeout: 120_000 },
  );
}

// ---- the data ----------------------------------------------------------------------------------

type StudentSeed = {
  name: string;
  age: number;
  gender: string | null;
  status: StudentStatus;
  email?: string;
  phone?: string;
  /** index into the organization's teachers; defaults to the first */
  by?: number;
  /** the user (by e-mail) this student record belongs to */
  login?: string;
};

type CandidateSeed = Omit<StudentSeed, "status" | "login"> & { status: CandidateStatus };

type QuestionSeed = {
  text: string;
  type: QuestionType;
  required?: boolean;
  /** [text, score] in display order; none for TEXT questions */
  options?: [string, number][];
};

type FormSeed = {
  /** e-mail of the creating teacher */
  by: string;
  title: string;
  description: string;
  category: string;
  type: string;
  targetAudience: string;
  isPublished: boolean;
  isTemplate?: boolean;
  questions: QuestionSeed[];
  /** [min, max, label, colour]; closed, non-overlapping, covering every reachable total */
  ranges: [number, number, string, string][];
};

type WorldSeed = {
  name: string;
  /** IANA zone: the school is on UTC, the clinic far from it, so whole-day rules are seen to work. */
  timeZone: string;
  kind: OrganizationKind;
  students: StudentSeed[];
  candidates: CandidateSeed[];
  forms: FormSeed[];
};

const GREEN = "#2E7D32";
const AMBER = "#F9A825";
const ORANGE = "#EF6C00";
const RED = "#C62828";

const FREQUENCY: [string, number][] = [
  ["Not at all", 0],
  ["Several days", 1],
  ["More than half the days", 2],
  ["Nearly every day", 3],
];

const BEHAVIOUR_FREQUENCY: [string, number][] = [
  ["Never or rarely", 0],
  ["Sometimes", 1],
  ["Often", 2],
  ["Very often", 3],
];

const demoSchool: WorldSeed = {
  name: DEMO_SCHOOL,
  timeZone: "UTC",
  kind: "SCHOOL",
  // Teachers: 0 = teacher@demo.test, 1 = teacher2@demo.test.
  students: [
    { name: "José Muñoz", age: 12, gender: "Male", status: "ACTIVE", email: "jose.munoz@families.demo.test", phone: "+34 612 345 678" },
    { name: "Łukasz Wójcik", age: 15, gender: "Male", status: "ACTIVE", email: "lukasz.wojcik@families.demo.test" },
    { name: "Zoë Ørsted", age: 9, gender: "Female", status: "ACTIVE", email: "zoe.orsted@families.demo.test", by: 1 },
    { name: "Ana Conceição", age: 11, gender: "Female", status: "ACTIVE", phone: "+351 912 345 678" },
    { name: "François Lefèvre", age: 17, gender: "Male", status: "INACTIVE", email: "francois.lefevre@families.demo.test" },
    { name: "Søren Kierkegård", age: 18, gender: "Male", status: "GRADUATED", by: 1 },
    { name: "Chloé Dubois", age: 8, gender: "Female", status: "ACTIVE" },
    { name: "Mateus Gonçalves", age: 13, gender: "Male", status: "SUSPENDED", phone: "+351 934 567 890", by: 1 },
    { name: "Renée Møller", age: 16, gender: "Female", status: "ACTIVE", email: "renee.moller@families.demo.test" },
    { name: "Nuño Ibáñez", age: 14, gender: "Male", status: "ACTIVE" },
    { name: "Zoltán Kovács", age: 10, gender: "Male", status: "ACTIVE", by: 1 },
    { name: "Małgorzata Zielińska", age: 17, gender: "Female", status: "ACTIVE", email: "malgorzata.zielinska@families.demo.test" },
    { name: "Björn Åkesson", age: 18, gender: "Male", status: "GRADUATED" },
    { name: "Aoife Ní Bhriain", age: 7, gender: "Female", status: "ACTIVE", by: 1 },
    { name: "Jiří Dvořák", age: 12, gender: "Male", status: "INACTIVE" },
    { name: "Leïla Benali", age: 15, gender: "Female", status: "ACTIVE", email: "leila.benali@families.demo.test", by: 1 },
    { name: "Emma Schäfer", age: 6, gender: "Female", status: "ACTIVE", phone: "+49 151 2345 6789" },
    { name: "Jonas Großmann", age: 13, gender: "Male", status: "ACTIVE" },
    { name: "Ayşe Yılmaz", age: 14, gender: "Female", status: "SUSPENDED", by: 1 },
    { name: "Thảo Nguyễn", age: 16, gender: "Female", status: "ACTIVE", email: "thao.nguyen@families.demo.test" },
    { name: "Kenji Satō", age: 11, gender: "Male", status: "ACTIVE", by: 1 },
    { name: "Sinéad Byrne", age: 14, gender: "Female", status: "INACTIVE" },
    { name: "Paweł Nowak", age: 10, gender: "Male", status: "ACTIVE" },
    { name: "Inès Moreau", age: 18, gender: "Female", status: "GRADUATED", email: "ines.moreau@families.demo.test", by: 1 },
    { name: "Alex Rivera", age: 12, gender: "Non-binary", status: "ACTIVE" },
    { name: "Oliver Brown", age: 9, gender: null, status: "ACTIVE", by: 1 },
    { name: "Mateo García", age: 14, gender: "Male", status: "ACTIVE", email: "student@demo.test", login: "student@demo.test" },
  ],
  candidates: [
    { name: "Mariana Araújo", age: 10, gender: "Female", status: "NEW", email: "mariana.araujo@families.demo.test" },
    { name: "Élodie Fontaine", age: 13, gender: "Female", status: "NEW", phone: "+33 6 12 34 56 78", by: 1 },
    { name: "Håkon Læstad", age: 15, gender: "Male", status: "IN_EVALUATION" },
    { name: "Dominika Świderska", age: 8, gender: "Female", status: "IN_EVALUATION", email: "dominika.swiderska@families.demo.test", by: 1 },
    { name: "Rafael Peña", age: 11, gender: "Male", status: "APPROVED", phone: "+34 698 765 432" },
    { name: "Nour El-Khatib", age: 16, gender: "Female", status: "REJECTED", by: 1 },
  ],
  forms: [
    {
      by: "teacher@demo.test",
      title: "Reading comprehension check — “The Lighthouse Keeper”",
      description:
        "Read the short story “The Lighthouse Keeper” with the student (about ten minutes), then ask the questions below without the text in front of them. The last question is not scored; note the answer for the class teacher.",
      category: "Academic",
      type: "Quiz",
      targetAudience: "Students in grades 4–6",
      isPublished: true,
      questions: [
        {
          text: "Why did Marta climb the lighthouse tower every evening?",
          type: "SINGLE_CHOICE",
          required: true,
          options: [
            ["To light the lamp for the fishing boats", 2],
            ["To watch the sunset over the harbour", 0],
            ["To hide from her younger brother", 0],
            ["To count the stars for her school project", 0],
          ],
        },
        {
          text: "“The rocks near the harbour were treacherous.” What does “treacherous” mean here?",
          type: "SINGLE_CHOICE",
          required: true,
          options: [
            ["Dangerous", 2],
            ["Slippery", 1],
            ["Beautiful", 0],
            ["Very old", 0],
          ],
        },
        {
          text: "Which of these things happen in the story? Choose all that apply.",
          type: "MULTIPLE_CHOICE",
          required: true,
          options: [
            ["A storm reaches the coast", 1],
            ["Marta repairs the broken lamp", 1],
            ["A fishing boat finds its way home", 1],
            ["Marta moves to the city", -1],
          ],
        },
        {
          text: "What is the story mostly about?",
          type: "SINGLE_CHOICE",
          required: true,
          options: [
            ["Keeping a promise even when it is hard", 2],
            ["How lighthouses are built", 0],
            ["A family going on holiday", 0],
          ],
        },
        {
          text: "In one or two sentences, how did Marta feel at the end of the story, and why?",
          type: "TEXT",
        },
      ],
      ranges: [
        [-1, 3, "Needs support", RED],
        [4, 6, "Developing", AMBER],
        [7, 9, "Proficient", GREEN],
      ],
    },
    {
      by: "teacher2@demo.test",
      title: "Wellbeing screening — anxiety (7 items)",
      description:
        "A short self-report screening for symptoms of anxiety over the last two weeks. It is a conversation starter, not a diagnosis: a total of 10 or more should lead to a follow-up talk with the school psychologist.",
      category: "Wellbeing",
      type: "Screening",
      targetAudience: "Students aged 12–18",
      isPublished: true,
      questions: [
        ...[
          "Feeling nervous, anxious or on edge",
          "Not being able to stop or control worrying",
          "Worrying too much about different things",
          "Trouble relaxing",
          "Being so restless that it is hard to sit still",
          "Becoming easily annoyed or irritable",
          "Feeling afraid, as if something awful might happen",
        ].map(
          (item): QuestionSeed => ({
            text: `Over the last two weeks, how often have you been bothered by: ${item.toLowerCase()}?`,
            type: "SCALE",
            required: true,
            options: FREQUENCY,
          }),
        ),
        { text: "Is there anything else you would like us to know?", type: "TEXT" },
      ],
      ranges: [
        [0, 4, "Minimal", GREEN],
        [5, 9, "Mild", AMBER],
        [10, 14, "Moderate", ORANGE],
        [15, 21, "Severe", RED],
      ],
    },
    {
      by: "teacher@demo.test",
      title: "Study habits survey",
      description:
        "How students organise their homework and revision. Used at the start of each term to plan study-skills workshops; there are no right or wrong answers.",
      category: "Academic",
      type: "Survey",
      targetAudience: "Students in grades 6–12",
      isPublished: true,
      questions: [
        {
          text: "On a typical school day, how long do you spend on homework and revision?",
          type: "SINGLE_CHOICE",
          required: true,
          options: [
            ["Less than 30 minutes", 0],
            ["30 minutes to 1 hour", 1],
            ["1 to 2 hours", 2],
            ["More than 2 hours", 1],
          ],
        },
        {
          text: "Which of these do you usually do while studying? Choose all that apply.",
          type: "MULTIPLE_CHOICE",
          options: [
            ["Make a plan or a to-do list", 1],
            ["Test myself with questions or flashcards", 1],
            ["Take short breaks", 1],
            ["Keep my phone next to me with notifications on", -1],
          ],
        },
        {
          text: "How confident do you feel before a test?",
          type: "SCALE",
          required: true,
          options: [
            ["Not at all confident", 0],
            ["Slightly confident", 1],
            ["Somewhat confident", 2],
            ["Confident", 3],
            ["Very confident", 4],
          ],
        },
        {
          text: "Where do you usually study?",
          type: "SINGLE_CHOICE",
          options: [
            ["At a desk in a quiet room", 2],
            ["At the library or a study room", 2],
            ["At the kitchen table", 1],
            ["On my bed or the sofa", 0],
          ],
        },
        {
          text: "How often do you start an assignment the day before it is due?",
          type: "SCALE",
          required: true,
          options: [
            ["Never", 3],
            ["Rarely", 2],
            ["Sometimes", 1],
            ["Almost always", 0],
          ],
        },
        { text: "What one thing would help you study better?", type: "TEXT" },
      ],
      ranges: [
        [-1, 5, "Needs new habits", RED],
        [6, 10, "Building good habits", AMBER],
        [11, 14, "Strong study habits", GREEN],
      ],
    },
    {
      by: "teacher2@demo.test",
      title: "Template — Weekly mood check-in",
      description: "A five-minute check-in to copy and adapt for your class. Low totals are worth a quiet word the same day.",
      category: "Wellbeing",
      type: "Check-in",
      targetAudience: "All students",
      isPublished: false,
      isTemplate: true,
      questions: [
        {
          text: "How has your mood been this week?",
          type: "SCALE",
          required: true,
          options: [
            ["Very low", -2],
            ["Low", -1],
            ["Okay", 0],
            ["Good", 1],
            ["Great", 2],
          ],
        },
        {
          text: "How well have you been sleeping?",
          type: "SCALE",
          required: true,
          options: [
            ["Badly", 0],
            ["Not great", 1],
            ["Fine", 2],
            ["Well", 3],
          ],
        },
        {
          text: "Did anything worry you at school this week?",
          type: "SINGLE_CHOICE",
          required: true,
          options: [
            ["No", 1],
            ["A little", 0],
            ["Yes, a lot", -1],
          ],
        },
        {
          text: "Who did you talk to when you needed help? Choose all that apply.",
          type: "MULTIPLE_CHOICE",
          options: [
            ["A friend", 1],
            ["Someone in my family", 1],
            ["A teacher or another adult at school", 1],
            ["No one", 0],
          ],
        },
        { text: "Is there anything you would like your teacher to know?", type: "TEXT" },
      ],
      ranges: [
        [-3, 1, "Check in today", RED],
        [2, 5, "Keep an eye on", AMBER],
        [6, 9, "Doing well", GREEN],
      ],
    },
  ],
};

const otherClinic: WorldSeed = {
  name: OTHER_CLINIC,
  timeZone: "Asia/Tokyo",
  // Its pages say patients and clinicians (ADR 81).
  kind: "CLINIC",
  students: [
    { name: "Ingrid Sørensen", age: 9, gender: "Female", status: "ACTIVE", email: "ingrid.sorensen@families.other.test" },
    { name: "Mehmet Öztürk", age: 14, gender: "Male", status: "ACTIVE" },
    { name: "Lucía Fernández", age: 11, gender: "Female", status: "INACTIVE", phone: "+34 677 123 456" },
    { name: "Théo Girard", age: 16, gender: "Male", status: "SUSPENDED" },
    { name: "Hanna Kowalczyk", age: 18, gender: "Female", status: "GRADUATED", email: "hanna.kowalczyk@families.other.test" },
  ],
  candidates: [
    { name: "Elif Şahin", age: 7, gender: "Female", status: "NEW", email: "elif.sahin@families.other.test" },
    { name: "Guðrún Jónsdóttir", age: 12, gender: "Female", status: "IN_EVALUATION" },
  ],
  forms: [
    {
      by: "teacher@other.test",
      title: "Attention and activity — parent questionnaire",
      description:
        "Completed by a parent or carer before the first appointment. Describes the child's behaviour over the last six months; a high total is a reason for a full assessment, not a diagnosis.",
      category: "Clinical",
      type: "Screening",
      targetAudience: "Parents of children aged 6–12",
      isPublished: true,
      questions: [
        "Has difficulty keeping attention on tasks or play",
        "Does not seem to listen when spoken to directly",
        "Loses things needed for tasks (school books, pencils, toys)",
        "Fidgets with hands or feet, or squirms in the seat",
        "Has difficulty waiting for their turn",
        "Interrupts or intrudes on others",
      ].map((text): QuestionSeed => ({ text, type: "SCALE", required: true, options: BEHAVIOUR_FREQUENCY })),
      ranges: [
        [0, 6, "Typical", GREEN],
        [7, 12, "Borderline", AMBER],
        [13, 18, "Elevated", RED],
      ],
    },
    {
      by: "teacher@other.test",
      title: "Sleep habits questionnaire",
      description: "Bedtime routine and sleep quality over a typical school week. Draft: still being reviewed by the team.",
      category: "Clinical",
      type: "Questionnaire",
      targetAudience: "Children and adolescents aged 8–18",
      isPublished: false,
      questions: [
        {
          text: "On school nights, how many hours do you usually sleep?",
          type: "SINGLE_CHOICE",
          required: true,
          options: [
            ["Less than 7 hours", -1],
            ["7 to 8 hours", 1],
            ["More than 8 hours", 2],
          ],
        },
        {
          text: "What do you usually do in the hour before bed? Choose all that apply.",
          type: "MULTIPLE_CHOICE",
          options: [
            ["Use a phone, tablet or computer", -1],
            ["Read a book", 1],
            ["Watch television", 0],
            ["Have a bath or shower", 1],
          ],
        },
        {
          text: "How rested do you feel when you wake up?",
          type: "SCALE",
          required: true,
          options: [
            ["Exhausted", 0],
            ["Tired", 1],
            ["Rested", 2],
            ["Full of energy", 3],
          ],
        },
        { text: "Describe anything that often wakes you up at night.", type: "TEXT" },
      ],
      ranges: [
        [-2, 2, "Poor sleep habits", RED],
        [3, 7, "Good sleep habits", GREEN],
      ],
    },
  ],
};

// ---- writing it --------------------------------------------------------------------------------

const DAY = 24 * 60 * 60 * 1000;

/** Spreads creation dates over the last months so lists have a stable, realistic order. */
function createdAgo(days: number, index: number): Date {
  return new Date(Date.now() - days * DAY + index * 37 * 60 * 1000);
}

/** Grade 1 at six years old, Grade 12 at seventeen and eighteen. */
function gradeFor(age: number): string {
  return `Grade ${Math.min(12, Math.max(1, age - 5))}`;
}

async function createOrganization(tx: Tx, world: WorldSeed, hashes: Map<string, string>): Promise<string> {
  const organization = await tx.organization.create({ data: { name: world.name, timeZone: world.timeZone, kind: world.kind }, select: { id: true } });
  const organizationId = organization.id;
  const userIds = new Map<string, string>();
  const teacherUserIds: string[] = [];

  for (const [index, login] of DEMO_LOGINS.filter((l) => l.organization === world.name).entries()) {
    const specialty = SPECIALTIES[login.email];
    const user = await tx.user.create({
      data: {
        organizationId,
        email: login.email,
        name: login.name,
        searchName: foldForSearch(`${login.name} ${login.email}`),
        role: login.role,
        passwordHash: hashes.get(login.email) ?? null,
        createdAt: createdAgo(180, index),
        ...(login.role === "TEACHER" ? { teacher: { create: { organizationId, specialty: specialty ?? null } } } : {}),
      },
      select: { id: true },
    });
    userIds.set(login.email, user.id);
    if (login.role === "TEACHER") teacherUserIds.push(user.id);
  }
  const teacherId = (by = 0) => teacherUserIds[by] ?? teacherUserIds[0] ?? null;

  const students = await tx.student.createMany({
    data: world.students.map((student, index) => ({
      organizationId,
      userId: student.login ? (userIds.get(student.login) ?? null) : null,
      name: student.name,
      searchName: foldForSearch(student.name),
      email: student.email ?? null,
      phone: student.phone ?? null,
      age: student.age,
      grade: gradeFor(student.age),
      gender: student.gender,
      status: student.status,
      createdById: teacherId(student.by),
      createdAt: createdAgo(150, index * 4),
    })),
  });

  const candidates = await tx.candidate.createMany({
    data: world.candidates.map((candidate, index) => ({
      organizationId,
      name: candidate.name,
      searchName: foldForSearch(candidate.name),
      email: candidate.email ?? null,
      phone: candidate.phone ?? null,
      age: candidate.age,
      grade: gradeFor(candidate.age),
      gender: candidate.gender,
      status: candidate.status,
      createdById: teacherId(candidate.by),
      createdAt: createdAgo(30, index * 20),
    })),
  });

  let questions = 0;
  for (const [index, form] of world.forms.entries()) {
    const createdById = userIds.get(form.by);
    if (!createdById) throw new Error(`seed: form “${form.title}” names an unknown creator ${form.by}`);
    await tx.form.create({
      data: {
        organizationId,
        createdById,
        title: form.title,
        searchTitle: foldForSearch(form.title),
        description: form.description,
        category: form.category,
        type: form.type,
        targetAudience: form.targetAudience,
        isPublished: form.isPublished,
        isTemplate: form.isTemplate ?? false,
        createdAt: createdAgo(120, index * 24 * 7),
        questions: {
          create: form.questions.map((question, position) => ({
            position,
            text: question.text,
            type: question.type,
            required: question.required ?? false,
            options: {
              create: (question.options ?? []).map(([text, score], optionPosition) => ({
                position: optionPosition,
                text,
                score,
              })),
            },
          })),
        },
        scoreRanges: {
          create: form.ranges.map(([min, max, label, color], position) => ({ position, min, max, label, color })),
        },
      },
      select: { id: true },
    });
    questions += form.questions.length;
  }

  return `${world.name}: ${userIds.size} users, ${students.count} students, ${candidates.count} candidates, ${world.forms.length} forms (${questions} questions)`;
}
