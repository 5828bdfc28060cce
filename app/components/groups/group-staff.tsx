import { Form } from "react-router";
import { GROUP_STAFF_ROLES } from "~/features/groups/group-staff-roles.ts";
import { useT } from "~/i18n/hooks.ts";
import { Alert } from "../alert.tsx";
import { Badge } from "../badge.tsx";
import { Button } from "../button.tsx";
import { CsrfInput } from "../csrf-input.tsx";
import { Select } from "../field.tsx";
import { Section } from "../page-header.tsx";
import { RowAction } from "../row-action.tsx";

type Role = (typeof GROUP_STAFF_ROLES)[number];
type StaffEntry = { userId: string; name: string; role: Role };

/** The intent of every staff form: each posts the whole new staff, as PUT /api/groups/:id/staff takes it. */
export const STAFF_INTENT = "staff";

/** `entries` as the form fields of the staff list (`staff[0].userId`, `staff[0].role`, …) from `start`. */
const staffFields = (entries: readonly StaffEntry[], start = 0) =>
  Object.fromEntries(
    entries.flatMap((entry, index) => [
      [`staff[${start + index}].userId`, entry.userId],
      [`staff[${start + index}].role`, entry.role],
    ]),
  );

function Hidden({ fields }: { fields: Record<string, string> }) {
  return Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />);
}

/**
 * A group's staff with their roles; for its owners and the administrators (`colleagues` given),
 * a role to change and a remove button on each row and a colleague to add. Each is a plain form
 * posting the whole staff it leaves, so it works without JavaScript.
 */
export function GroupStaffSection({ staff, colleagues, errors }: { staff: StaffEntry[]; colleagues: { id: string; name: string }[] | null; errors: string[] }) {
  const t = useT();
  const roleOptions = GROUP_STAFF_ROLES.map((role) => ({ value: role, label: t.groups.staff.roles[role] }));
  return (
    <Section id="staff" title={t.groups.staff.title} description={t.groups.staff.description}>
      {errors.length > 0 ? (
        <div className="px-4 pt-4 sm:px-5">
          <Alert tone="error">
            {errors.map((error) => (
              <p key={error}>{error}</p>
            ))}
          </Alert>
        </div>
      ) : null}
      {staff.length === 0 ? (
        <p className="px-4 py-5 text-sm text-slate-600 sm:px-5">{t.groups.staff.none}</p>
      ) : (
        <ul className="divide-y divide-slate-200">
          {staff.map((entry, index) => {
            const others = staff.filter((other) => other.userId !== entry.userId);
            return (
              <li key={entry.userId} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-5">
                <div className="flex min-w-0 flex-wrap items-center gap-2">
                  <span className="font-medium wrap-anywhere text-slate-900">{entry.name}</span>
                  <Badge tone="info">{t.groups.staff.roles[entry.role]}</Badge>
                </div>
                {colleagues ? (
                  <div className="flex flex-wrap items-center gap-2">
                    <Form method="post" className="flex items-center gap-2">
                      <CsrfInput />
                      <Hidden fields={staffFields(staff.slice(0, index))} />
                      <input type="hidden" name={`staff[${index}].userId`} value={entry.userId} />
                      <Select
                        key={entry.role}
                        label={t.groups.staff.roleOf(entry.name)}
                        hideLabel
                        name={`staff[${index}].role`}
                        defaultValue={entry.role}
                        options={roleOptions}
                      />
                      <Hidden fields={staffFields(staff.slice(index + 1), index + 1)} />
                      <Button
                        type="submit"
                        name="intent"
                        value={STAFF_INTENT}
                        size="sm"
                        variant="secondary"
                        aria-label={t.groups.staff.changeRoleOf(entry.name)}
                        pendingText={t.common.working}
                      >
                        {t.groups.staff.changeRole}
                      </Button>
                    </Form>
                    <RowAction intent={STAFF_INTENT} values={staffFields(others)} label={t.groups.staff.remove} name={t.groups.staff.removeNamed(entry.name)} />
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {colleagues ? (
        <div className="space-y-3 border-t border-slate-200 px-4 py-5 sm:px-5">
          <h3 className="text-sm font-semibold text-slate-900">{t.groups.staff.addTitle}</h3>
          {colleagues.length === 0 ? (
            <p className="text-sm text-slate-600">{t.groups.staff.nobodyToAdd}</p>
          ) : (
            <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-end">
              <CsrfInput />
              <Hidden fields={staffFields(staff)} />
              <Select
                className="min-w-0 flex-1"
                label={t.groups.staff.colleague}
                name={`staff[${staff.length}].userId`}
                required
                options={colleagues.map((colleague) => ({ value: colleague.id, label: colleague.name }))}
              />
              <Select label={t.groups.staff.role} name={`staff[${staff.length}].role`} defaultValue="VIEWER" options={roleOptions} />
              <Button type="submit" name="intent" value={STAFF_INTENT} variant="primary" pendingText={t.common.working}>
                {t.groups.staff.add}
              </Button>
            </Form>
          )}
        </div>
      ) : null}
    </Section>
  );
}
