import { z } from "zod";
import { idSchema, changesResponse, timestamp } from "~/lib/schemas.ts";
import { historyItem, personFields, personListQuery, personProfileFields } from "../people/person-schemas.ts";
import { student } from "../students/student-schemas.ts";
import { CANDIDATE_STATUSES, EDITABLE_CANDIDATE_STATUSES } from "./candidate-statuses.ts";

export const createCandidateBody = z
  .strictObject({ ...personProfileFields, status: z.enum(EDITABLE_CANDIDATE_STATUSES).default("NEW") })
  .meta({ id: "CandidateCreate" });

export const updateCandidateBody = z
  .strictObject({
    ...personProfileFields,
    name: personProfileFields.name.optional(),
    status: z.enum(EDITABLE_CANDIDATE_STATUSES).optional(),
  })
  .meta({ id: "CandidateUpdate" });

export type CreateCandidateInput = z.output<typeof createCandidateBody>;
export type UpdateCandidateInput = z.output<typeof updateCandidateBody>;

export const listCandidatesQuery = personListQuery(CANDIDATE_STATUSES);
export type ListCandidatesQuery = z.output<typeof listCandidatesQuery>;

export const candidate = z
  .object({
    ...personFields,
    status: z.enum(CANDIDATE_STATUSES),
    promotedStudentId: idSchema.nullable(),
    promotedAt: timestamp.nullable(),
  })
  .meta({ id: "Candidate" });
export const candidateListResponse = changesResponse("candidates", candidate);
export const candidateDetail = candidate.extend({ evaluations: z.array(historyItem) }).meta({ id: "CandidateDetail" });
export const promotionResponse = z.object({ student, candidate }).meta({ id: "Promotion" });
