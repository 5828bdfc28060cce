import { createContext } from "react-router";
import type { Actor } from "./auth/actor.server.ts";

/** The TCP peer of the request, set by the HTTP server (server.ts) before routing. */
export const clientAddressContext = createContext<string>("unknown");

/** Who is calling: set by the session middleware in root.tsx, null without a valid session. */
export const actorContext = createContext<Actor | null>(null);
