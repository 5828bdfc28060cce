import { redirect } from "react-router";
import { DEFAULT_LOCALE } from "~/lib/i18n.ts";

export const loader = () => redirect(`/${DEFAULT_LOCALE}/home`);
