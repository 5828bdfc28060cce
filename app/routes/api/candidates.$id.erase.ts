import { erasureEndpoint } from "~/features/people/data-protection-endpoints.server.ts";

/** Erasing one candidate (ANONYMISE or DELETE); declared with its handler in erasureEndpoint. */
const handle = erasureEndpoint("candidate");

export const loader = handle;
export const action = handle;
