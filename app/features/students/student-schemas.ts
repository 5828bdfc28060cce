import { z } from "zod";
import { STUDENT_STATUSES } from "./student-statuses.ts";
import { changesResponse } from "~/lib/schemas.ts";
import { historyItem, personFields, personListQuery, personProfileFields } from "../people/person-schemas.ts";

export const createStudentBody = z.strictObject({ ...personProfileFields, status: z.enum(STUDENT_STATUSES).default("ACTIVE") }).meta({ id: "StudentCreate" });

export const updateStudentBody = z
  .strictObject({
    ...personProfileFields,
    name: personProfileFields.name.optional(),
    status: z.enum(STUDENT_STATUSES).optional(),
  })
  .meta({ id: "StudentUpdate" });

export type CreateStudentInput = z.output<typeof createStudentBody>;
export type UpdateStudentInput = z.output<typeof updateStudentBody>;

export const listStudentsQuery = personListQuery(STUDENT_STATUSES);
export type ListStudentsQuery = z.output<typeof listStudentsQuery>;

export const student = z.object({ ...personFields, status: z.enum(STUDENT_STATUSES) }).meta({ id: "Student" });
export const studentListResponse = changesResponse("students", student);
export const studentDetail = student.extend({ submissions: z.array(historyItem) }).meta({ id: "StudentDetail" });
