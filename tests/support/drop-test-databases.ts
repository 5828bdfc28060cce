// Drops the PostgreSQL test databases whose URLs it is given. Run by a test run that exits
// without its teardown (tests/support/services-setup.ts), where only a synchronous child can still
// do the work: `node --import tsx tests/support/drop-test-databases.ts <url>…`.

import { dropTestDatabase } from "./test-database.ts";

await Promise.all(process.argv.slice(2).map((url) => dropTestDatabase(url)));
