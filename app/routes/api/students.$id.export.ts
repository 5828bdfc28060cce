import { subjectAccessEndpoint } from "~/features/people/data-protection-endpoints.server.ts";

/** Subject access to one student's data; declared with its handler in subjectAccessEndpoint. */
const handle = subjectAccessEndpoint("student");

export const loader = handle;
export const action = handle;
