import type { Route } from "./+types/home";
import { actorContext } from "~/lib/context.server.ts";
import { db } from "~/lib/db.server.ts";
import { requireActor } from "~/lib/auth/actor.server.ts";

export const meta: Route.MetaFunction = () => [{ title: "Home · Assessment Service" }];

export async function loader({ context }: Route.LoaderArgs) {
  const actor = requireActor(context.get(actorContext));
  const organization = await db.organization.findUnique({ where: { id: actor.organizationId }, select: { name: true } });
  return { name: actor.name, organization: organization?.name ?? "" };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-5xl px-6 py-10">
      <h1 className="text-2xl font-bold tracking-tight">Welcome, {loaderData.name}</h1>
      <p className="mt-1 text-slate-600">{loaderData.organization}</p>
    </main>
  );
}
