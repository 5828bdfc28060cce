import { erasureEndpoint } from "~/features/people/data-protection-endpoints.server.ts";

/** Erasing one student (ANONYMISE or DELETE); declared with its handler in erasureEndpoint. */
const handle = erasureEndpoint("student");

export const loader = handle;
export const action = handle;
