import { driverReads } from "../db.server.ts";
import type { StaffedGroup } from "./actor.server.ts";
import { readStaffedGroups } from "./actor-row.server.ts";

/**
 * The live groups a teacher is staff of, each with its whole staff (ADR 86). Administrators see
 * their organization whatever groups they share, and a student's login shares none: neither asks.
 */
export async function staffedGroups(user: { id: string; role: string }): Promise<StaffedGroup[]> {
  return user.role === "TEACHER" ? readStaffedGroups(driverReads(), user.id) : [];
}
