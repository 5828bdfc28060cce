/** What a student or candidate form posts and what its action answers on an error (shared by server and page). */
export const PROFILE_FIELDS = ["name", "email", "externalId", "dateOfBirth", "phone", "age", "grade", "gender", "status"] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileValues = Partial<Record<ProfileField, string>>;

/** A stored profile as the form's starting values. */
export function profileValues(person: {
  name: string;
  email: string | null;
  externalId: string | null;
  dateOfBirth: string | null;
  phone: string | null;
  age: number | null;
  grade: string | null;
  gender: string | null;
  status: string;
}): ProfileValues {
  return {
    name: person.name,
    email: person.email ?? "",
    externalId: person.externalId ?? "",
    dateOfBirth: person.dateOfBirth ?? "",
    phone: person.phone ?? "",
    age: person.age === null ? "" : String(person.age),
    grade: person.grade ?? "",
    gender: person.gender ?? "",
    status: person.status,
  };
}
