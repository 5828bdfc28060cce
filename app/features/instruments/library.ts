import type { InstrumentDefinition } from "./instrument-definition.ts";
import { AUDIT } from "./library/audit.ts";
import { AUDIT_C } from "./library/audit-c.ts";
import { DASS_21 } from "./library/dass-21.ts";
import { EPDS } from "./library/epds.ts";
import { GAD_7 } from "./library/gad-7.ts";
import { K10 } from "./library/k10.ts";
import { PCL_5 } from "./library/pcl-5.ts";
import { PHQ_9 } from "./library/phq-9.ts";
import { PHQ_15 } from "./library/phq-15.ts";
import { ROSENBERG } from "./library/rosenberg.ts";
import { WHO_5 } from "./library/who-5.ts";

/**
 * The instrument library (docs/api-contract.md §17): every instrument the service ships, in the
 * order `GET /api/instruments` lists them. Adding one is a file in `library/` and a line here
 * (ADR 67).
 */
export const INSTRUMENTS: readonly InstrumentDefinition[] = [PHQ_9, GAD_7, PHQ_15, WHO_5, K10, EPDS, AUDIT, AUDIT_C, PCL_5, DASS_21, ROSENBERG];

const byKey = new Map(INSTRUMENTS.map((instrument) => [instrument.key, instrument]));

export const instrumentByKey = (key: string): InstrumentDefinition | null => byKey.get(key) ?? null;
