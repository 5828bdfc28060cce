import { STAFF } from "~/lib/api-operation.ts";
import { deletedResponse } from "~/lib/schemas.ts";
import type { Route } from "./+types/schedules.$id";
import { scheduleDetailResponse, scheduleResponse, updateScheduleBody } from "~/features/schedules/schedule-schemas.ts";
import { deleteSchedule, getSchedule, updateSchedule } from "~/features/schedules/schedules.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody } from "~/lib/http.server.ts";

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => json(await getSchedule(requireStaff(actorOf(context)), params.id)),
    PUT: async ({ request, params, context }) => {
      const actor = requireStaff(actorOf(context));
      return json(await updateSchedule(actor, params.id, await readJsonBody(request, updateScheduleBody)));
    },
    DELETE: async ({ params, context }) => json(await deleteSchedule(requireStaff(actorOf(context)), params.id)),
  },
  {
    GET: {
      operationId: "getSchedule",
      tag: "Schedules",
      auth: "session",
      roles: STAFF,
      summary: "Read a schedule with its next occurrence and the occurrences so far (done, missed, failed).",
      success: { status: 200, description: "The schedule and its latest occurrences.", schema: scheduleDetailResponse },
      errors: [401, 403, 404],
    },
    PUT: {
      operationId: "updateSchedule",
      tag: "Schedules",
      auth: "session",
      roles: STAFF,
      summary:
        "Change a schedule, pause it (paused: true) or resume it (paused: false). A teacher changes their own schedules, an administrator the organization's.",
      body: { schema: updateScheduleBody, types: ["json"] },
      success: { status: 200, description: "The schedule as changed.", schema: scheduleResponse },
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["SCHEDULE_CHANGED"] },
    },
    DELETE: {
      operationId: "deleteSchedule",
      tag: "Schedules",
      auth: "session",
      roles: STAFF,
      summary: "Delete a schedule: no occurrence follows; the links it made stay.",
      success: { status: 200, description: "Deleted.", schema: deletedResponse },
      errors: [401, 403, 404],
    },
  },
);

export const loader = handle;
export const action = handle;
