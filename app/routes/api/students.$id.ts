import { ADMINS, browserBody, STAFF } from "~/lib/api-operation.ts";
import { deletedResponse } from "~/lib/schemas.ts";
import type { Route } from "./+types/students.$id";
import { studentDetail, updateStudentBody } from "~/features/students/student-schemas.ts";
import { deleteStudent, getStudent, updateStudent } from "~/features/students/students.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { readIfMatch, versionedJson } from "~/lib/entity-tag.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => versionedJson(await getStudent(requireStaff(actorOf(context)), params.id)),
    PUT: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return versionedJson(await updateStudent(actor, params.id, await readJsonOrFormBody(request, updateStudentBody), readIfMatch(request)));
    },
    DELETE: async ({ params, context }) => json(await deleteStudent(requireStaff(actorOf(context)), params.id)),
  },
  {
    GET: {
      operationId: "getStudent",
      tag: "Students",
      auth: "session",
      roles: STAFF,
      summary: "Read a student with the history of results the caller may see.",
      success: { status: 200, description: "The student.", schema: studentDetail },
      versioned: true,
      errors: [401, 403, 404],
    },
    PUT: {
      operationId: "updateStudent",
      tag: "Students",
      auth: "session",
      roles: STAFF,
      summary: "Update the fields sent (JSON, urlencoded or multipart).",
      body: { schema: updateStudentBody, types: browserBody },
      success: { status: 200, description: "The updated student.", schema: studentDetail },
      versioned: true,
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["EMAIL_TAKEN", "EXTERNAL_ID_TAKEN"] },
    },
    DELETE: {
      operationId: "deleteStudent",
      tag: "Students",
      auth: "session",
      roles: ADMINS,
      summary: "Soft-delete a student; their pending links stop, completed results stay.",
      success: { status: 200, description: "Deleted.", schema: deletedResponse },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
