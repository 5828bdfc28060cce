/** Joins class names, skipping false, null and undefined: cx("a", on && "b"). */
export const cx = (...classes: (string | false | null | undefined)[]) => classes.filter(Boolean).join(" ");
