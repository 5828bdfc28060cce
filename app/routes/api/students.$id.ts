import type { Route } from "./+types/students.$id";
import { updateStudentBody } from "~/features/students/student-schemas.ts";
import { deleteStudent, getStudent, updateStudent } from "~/features/students/students.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonOrFormBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>({
  GET: async ({ params, context }) => json(await getStudent(requireStaff(actorOf(context)), params.id)),
  PUT: async ({ request, params, context }) => {
    const actor = requireStaff(actorOf(context));
    return json(await updateStudent(actor, params.id, await readJsonOrFormBody(request, updateStudentBody)));
  },
  DELETE: async ({ params, context }) => json(await deleteStudent(requireStaff(actorOf(context)), params.id)),
});

export const loader = handle;
export const action = handle;
