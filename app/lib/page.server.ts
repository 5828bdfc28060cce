import { data, type RouterContextProvider } from "react-router";
import { isAdmin, isStaff, type Actor } from "./auth/actor.server.ts";
import { actorContext } from "./context.server.ts";
import { verifyCsrfToken } from "./auth/csrf.server.ts";
import { ApiError } from "./problem.server.ts";

/**
 * Helpers for page loaders and actions under the signed-in layout (whose middleware has already
 * sent anyone without a session to the sign-in page). Services throw ApiError; pages must answer
 * with a status and the friendly error page instead, which is what these do.
 */
type Context = Pick<Readonly<RouterContextProvider>, "get">;

/** A thrown 403/404 that the error boundaries render as the friendly page. */
export const pageError = (status: 403 | 404) => data(null, { status });

/** The signed-in caller. */
export function pageActor(context: Context): Actor {
  const actor = context.get(actorContext);
  // The signed-in layout's middleware guarantees a caller; this only guards a misplaced route.
  if (!actor) throw pageError(404);
  return actor;
}

/** Teachers and administrators; a student's login gets the 403 page. */
export function staffPageActor(context: Context): Actor {
  const actor = pageActor(context);
  if (!isStaff(actor)) throw pageError(403);
  return actor;
}

/** Administrators only; everyone else gets the 403 page. */
export function adminPageActor(context: Context): Actor {
  const actor = pageActor(context);
  if (!isAdmin(actor)) throw pageError(403);
  return actor;
}

/**
 * Runs a service call for a page: its 404 and 403 become the friendly error pages with the same
 * status; anything else (a 400 the page should show by the fields, say) is thrown on unchanged.
 *
 *   const student = await forPage(getStudent(actor, params.id));
 */
export async function forPage<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 403)) throw pageError(error.status);
    throw error;
  }
}

/**
 * A page form's post, once its CSRF token checks out; a missing or stale token (a form left open
 * for long, a forged post) is the friendly 403 page.
 */
export async function readPagePost(request: Request) {
  const formData = await request.formData();
  const csrf = formData.get("csrfToken");
  await forPage(verifyCsrfToken(request, typeof csrf === "string" ? csrf : null));
  return formData;
}
