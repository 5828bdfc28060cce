import { listReports, Refusal } from "../../../baseline-reads.ts";
import { callerOrRefusal, json, reads } from "../reads.server.ts";

export async function loader({ request }: { request: Request }) {
  const caller = await callerOrRefusal(request);
  try {
    return json(await listReports(reads, caller, new URL(request.url)));
  } catch (error) {
    if (error instanceof Refusal) throw Response.json({ status: error.status, detail: error.message }, { status: error.status });
    throw error;
  }
}
