import { cx } from "~/components/cx.ts";
import type { TestImage } from "~/features/submissions/test-link-page.ts";

/**
 * A question's or option's image (docs/api-contract.md §22) with its alt text, never wider than its
 * column, so that a phone shows it whole.
 */
export function FormImage({ image, className }: { image: TestImage | undefined; className?: string }) {
  if (!image) return null;
  return <img src={image.url} alt={image.alt} loading="lazy" decoding="async" className={cx("block h-auto max-w-full rounded-md", className)} />;
}
