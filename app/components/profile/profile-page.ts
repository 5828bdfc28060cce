import { useT } from "~/i18n/hooks.ts";
import { documentTitle, type Dictionary } from "~/i18n/dictionaries.ts";
import { metaTranslations } from "~/i18n/meta.ts";

/** The browser tab's title of a profile page: its section, then the profile (app/routes/profile.tsx). */
export function profilePageMeta(args: Parameters<typeof metaTranslations>[0], section: (t: Dictionary) => string) {
  const t = metaTranslations(args);
  return [{ title: documentTitle(t, `${section(t)} · ${t.profile.title}`) }];
}

/**
 * What the profile's forms call each field, for their error summaries, and the id each field's
 * link goes to (`ids`: the fields whose control is not `id={name}`).
 */
export function useProfileSummary() {
  const t = useT();
  const labels: Record<string, string> = {
    image: t.profile.avatar,
    name: t.profile.name,
    email: t.profile.email,
    currentPassword: t.profile.currentPassword,
    phone: t.profile.phone,
    specialty: t.profile.specialty,
    age: t.profile.age,
    grade: t.profile.grade,
    gender: t.profile.gender,
    newPassword: t.profile.newPassword,
    code: t.profile.code,
    password: t.profile.password,
  };
  return (ids: Record<string, string> = {}) => ({ label: (name: string) => labels[name], target: (name: string) => ids[name] ?? name });
}
