import { renderReportsPage } from "./baseline-pages.tsx";
import { createBaselineServer } from "./baseline-server.ts";

/** Entry point of the baseline process: `DATABASE_URL=… PORT=… tsx scripts/bench/baseline.ts`. */
const { server } = createBaselineServer(process.env.DATABASE_URL!, renderReportsPage);
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log(`baseline listening on ${process.env.PORT}`));
process.once("SIGTERM", () => process.exit(0));
