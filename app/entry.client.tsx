import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { loadDictionary } from "~/i18n/dictionaries.ts";
import { localeFromPath } from "~/lib/i18n.ts";

// The page's strings first: a page hydrates in its own language, the only one it downloads.
await loadDictionary(localeFromPath(window.location.pathname));

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  );
});
