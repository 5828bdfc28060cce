import { createStudentBody, listStudentsQuery } from "~/features/students/student-schemas.ts";
import { createStudent, listStudents } from "~/features/students/students.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint({
  GET: async ({ request, context }) => {
    const actor = requireStaff(actorOf(context));
    return json(await listStudents(actor, readQuery(request, listStudentsQuery)));
  },
  POST: async ({ request, context }) => {
    const actor = requireStaff(actorOf(context));
    return json(await createStudent(actor, await readJsonOrFormBody(request, createStudentBody)), 201);
  },
});

export const loader = handle;
export const action = handle;
