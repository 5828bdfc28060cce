import { type RouteConfig, route } from "@react-router/dev/routes";

export default [route("api/auth/session", "routes/session.ts"), route("api/reports", "routes/reports.ts")] satisfies RouteConfig;
