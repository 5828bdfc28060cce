import { sessionAnswer } from "../../../baseline-reads.ts";
import { callerOrRefusal, json } from "../reads.server.ts";

export async function loader({ request }: { request: Request }) {
  return json(sessionAnswer(await callerOrRefusal(request)));
}
