import type { Route } from "./+types/test-link.$token.review";
import { testLinkReviewResponse } from "~/features/submissions/review-schemas.ts";
import { reviewTestLink } from "~/features/submissions/review.server.ts";
import { readingTestLink } from "~/features/submissions/test-link-limits.server.ts";
import { clientAddressOf, endpoint } from "~/lib/endpoint.server.ts";
import { json } from "~/lib/http.server.ts";

/** Public: the token is the credential. Never cached, never leaked through Referer. */
const privateHeaders = { "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };

const handle = endpoint<Route.LoaderArgs>(
  {
    GET: async ({ params, context }) => {
      const review = await readingTestLink(clientAddressOf(context), params.token, () => reviewTestLink(params.token));
      return json(review, { headers: privateHeaders });
    },
  },
  {
    GET: {
      operationId: "reviewTestLink",
      tag: "Public test links",
      auth: "public",
      summary:
        "The respondent's answers with the answer key, the points each earned and the feedback, as the result was scored, in the form's order " +
        "(docs/api-contract.md §22). Only once the form's `review` allows it: AFTER_SUBMIT once the answers are sent; AFTER_CLOSE once they are sent " +
        "and the form is unpublished or the link has expired; never under NEVER (409 REVIEW_NOT_AVAILABLE). " +
        "429 after 300 opens of one link in 10 minutes, or after 100 unknown tokens from one client address in 10 minutes.",
      success: { status: 200, description: "The review.", schema: testLinkReviewResponse },
      errors: [404, 409, 429],
      codes: { 409: ["REVIEW_NOT_AVAILABLE"] },
    },
  },
);

export const loader = handle;
export const action = handle;
