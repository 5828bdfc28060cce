import type { ReactNode } from "react";
import { Link } from "react-router";

/** The link back to where a page came from ("← Back to the form"), above its header. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p>
      <Link to={to} className="text-sm font-medium text-indigo-700 hover:underline">
        ← {children}
      </Link>
    </p>
  );
}
