import { ApiError, problemResponse } from "~/lib/problem.server.ts";

/** Unknown /api paths answer problem details, not the HTML 404 page. */
const notFound = async () => problemResponse(new ApiError(404, "NOT_FOUND", "No API endpoint at this path."));
export const loader = notFound;
export const action = notFound;
