import { STAFF } from "~/lib/api-operation.ts";
import { createScheduleBody, listSchedulesQuery, scheduleListResponse, scheduleResponse } from "~/features/schedules/schedule-schemas.ts";
import { createSchedule, listSchedules } from "~/features/schedules/schedules.server.ts";
import { requireStaff } from "~/lib/auth/actor.server.ts";
import { actorOf, endpoint } from "~/lib/endpoint.server.ts";
import { json, readJsonBody, readQuery } from "~/lib/http.server.ts";

const handle = endpoint(
  {
    GET: async ({ request, context }) => json(await listSchedules(requireStaff(actorOf(context)), readQuery(request, listSchedulesQuery))),
    POST: async ({ request, context }) => {
      const actor = requireStaff(actorOf(context));
      return json(await createSchedule(actor, await readJsonBody(request, createScheduleBody)), 201);
    },
  },
  {
    GET: {
      operationId: "listSchedules",
      tag: "Schedules",
      auth: "session",
      roles: STAFF,
      summary: "List the schedules the caller sees (a teacher their own, an administrator the organization's), newest first.",
      query: listSchedulesQuery,
      success: { status: 200, description: "A page of schedules.", schema: scheduleListResponse },
      errors: [400, 401, 403],
    },
    POST: {
      operationId: "createSchedule",
      idempotencyKey: true,
      tag: "Schedules",
      auth: "session",
      roles: STAFF,
      summary:
        "Assign a form again every few days to a group (its members read at each occurrence) and/or students and candidates. Each occurrence, at the start of its day in the organization's time zone, " +
        "creates the links as a bulk assignment does; one that could not run within a day of its start is recorded MISSED, never sent late.",
      body: { schema: createScheduleBody, types: ["json"] },
      success: { status: 201, description: "The schedule, with its first occurrence.", schema: scheduleResponse, location: "/api/schedules/{schedule.id}" },
      errors: [400, 401, 403, 404, 409, 413, 415],
      codes: { 409: ["FORM_NOT_PUBLISHED"] },
    },
  },
);

export const loader = handle;
export const action = handle;
