import { browserBody, STAFF } from "~/lib/api-operation.ts";
import { createStudentBody, listStudentsQuery, studentDetail, studentListResponse } from "~/features/students/student-schemas.ts";
import { createStudent, listStudentChanges, listStudents } from "~/features/students/students.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { versionedJson } from "~/lib/entity-tag.server.ts";
import { json, readJsonOrFormBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      const query = readQuery(request, listStudentsQuery);
      const { updatedSince } = query;
      return json(updatedSince ? await listStudentChanges(actor, { ...query, updatedSince }) : await listStudents(actor, query));
    },
    POST: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      return versionedJson(await createStudent(actor, await readJsonOrFormBody(request, createStudentBody)), 201);
    },
  },
  {
    GET: {
      operationId: "listStudents",
      tag: "Students",
      auth: "session",
      roles: STAFF,
      summary: "List the organization's students.",
      query: listStudentsQuery,
      success: {
        status: 200,
        description: "A page of students, newest first; with updatedSince, the changes since then, oldest first, deletions included.",
        schema: studentListResponse,
      },
      errors: [400, 401, 403],
    },
    POST: {
      operationId: "createStudent",
      idempotencyKey: true,
      tag: "Students",
      auth: "session",
      roles: STAFF,
      summary: "Create a student (JSON, urlencoded or multipart).",
      body: { schema: createStudentBody, types: browserBody },
      success: { status: 201, description: "The created student.", schema: studentDetail, location: "/api/students/{id}" },
      versioned: true,
      errors: [400, 401, 403, 409, 413, 415],
      codes: { 409: ["EMAIL_TAKEN", "EXTERNAL_ID_TAKEN"] },
    },
  },
);

export const loader = handle;
export const action = handle;
