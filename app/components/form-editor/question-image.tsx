import { type RefObject, useRef, useState } from "react";
import { Form } from "react-router";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { cx } from "~/components/cx.ts";
import { Field } from "~/components/field.tsx";
import { FormImage } from "~/components/form-image.tsx";
import type { TestImage } from "~/features/submissions/test-link-page.ts";
import { useHydrated } from "~/components/use-hydrated.ts";
import { useT } from "~/i18n/hooks.ts";

/**
 * What the editor knows of its images: by saved question id and by saved option id, with the last
 * refused post's errors (`optionId` set when it was an option's).
 */
export type EditorImages = {
  byQuestion: Record<string, TestImage>;
  byOption: Record<string, TestImage>;
  refused?: { questionId: string; optionId?: string | undefined; fieldErrors: Record<string, string> } | undefined;
};

/** A saved question, or one of its saved options: what an image form names. */
type ImageTarget = { questionId: string; optionId?: string | undefined };

const formIdOf = (target: ImageTarget) => `image-form-${target.optionId ?? target.questionId}`;

/**
 * One question's image in the editor (docs/api-contract.md §22): the image with its description,
 * and a small form of its own (file, description, "Add the image" or "Remove the image"), posted as
 * multipart to the editor's page without JavaScript. Its fields sit in the question's card but belong
 * to a form outside the editor's (the `form` attribute: forms do not nest). With JavaScript, an image
 * dropped on the question's card fills the file field. The images of its saved options follow, each
 * with a form of its own, folded away in a <details> (open when one of them was just refused).
 */
export function QuestionImage({
  questionId,
  n,
  optionIds,
  images,
}: {
  questionId: string | undefined;
  n: number;
  /** The ids of its options as listed (empty for one not saved yet); none on a text question. */
  optionIds: string[];
  images: EditorImages;
}) {
  const t = useT().formImages;
  const fileRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  if (!questionId) return <p className="mt-3 text-sm text-slate-600">{t.saveFirst}</p>;
  const refusedOption = images.refused?.questionId === questionId ? images.refused.optionId : undefined;
  return (
    <fieldset
      className={cx("mt-4 rounded-md border border-dashed p-3", dragging ? "border-indigo-600 bg-indigo-50" : "border-slate-300")}
      data-testid={`question-image-${n}`}
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes("Files")) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        setDragging(false);
        if (!fileRef.current || event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        fileRef.current.files = event.dataTransfer.files;
      }}
    >
      <legend className="px-1 text-sm font-medium text-slate-800">{`${t.title} (${n})`}</legend>
      <ImageControls target={{ questionId }} images={images} fileRef={fileRef} shown={t.shown} />
      {optionIds.length > 0 ? (
        <details className="mt-4 text-sm" open={refusedOption !== undefined || undefined} data-testid={`option-images-${n}`}>
          <summary className="cursor-pointer font-medium text-indigo-700 hover:underline">
            {t.options}
            <span className="sr-only"> {t.optionsOf(n)}</span>
          </summary>
          <div className="mt-2 space-y-3">
            {optionIds.map((optionId, j) =>
              optionId ? (
                <fieldset key={optionId} className="rounded-md border border-slate-300 bg-white p-3">
                  <legend className="px-1 font-medium text-slate-800">{t.option(j + 1)}</legend>
                  <ImageControls target={{ questionId, optionId }} images={images} shown={t.shownOption} />
                </fieldset>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: an option not saved yet has no id, only its place
                <p key={`new-${j}`} className="text-slate-600">
                  {t.option(j + 1)}: {t.saveFirstOption}
                </p>
              ),
            )}
          </div>
        </details>
      ) : null}
    </fieldset>
  );
}

/** An item's image, if any, with "Remove the image", and the fields to add or replace it: all in the item's own small form. */
function ImageControls({
  target,
  images,
  fileRef,
  shown,
}: {
  target: ImageTarget;
  images: EditorImages;
  /** The question's own file field, which takes a dropped image; an option's, smaller, goes without the hints the question's gives. */
  fileRef?: RefObject<HTMLInputElement | null>;
  shown: string;
}) {
  const t = useT().formImages;
  const hydrated = useHydrated();
  const image = (target.optionId ? images.byOption[target.optionId] : images.byQuestion[target.questionId]) ?? null;
  const refused = images.refused;
  const errors = refused?.questionId === target.questionId && refused.optionId === target.optionId ? refused.fieldErrors : {};
  const form = formIdOf(target);
  return (
    <>
      {image ? (
        <div className="mb-3">
          <p className="text-sm text-slate-700">
            {shown} <span className="italic">{image.alt}</span>
          </p>
          <FormImage image={image} className="mt-2 max-h-40" />
          <Button type="submit" form={form} name="intent" value="removeImage" variant="secondary" size="sm" className="mt-2" formNoValidate>
            {t.remove}
          </Button>
        </div>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          ref={fileRef}
          form={form}
          type="file"
          name="file"
          accept="image/png,image/jpeg,image/webp"
          label={t.file}
          description={
            fileRef ? (
              <>
                {t.fileHint}
                {hydrated ? ` ${t.drop}` : null}
              </>
            ) : undefined
          }
          error={errors.file}
        />
        <Field
          form={form}
          name="imageAlt"
          maxLength={500}
          label={t.alt}
          description={fileRef ? t.altHint : undefined}
          defaultValue={image?.alt ?? ""}
          error={errors.imageAlt}
        />
      </div>
      <Button type="submit" form={form} name="intent" value="image" size="sm" className="mt-3">
        {image ? t.replace : t.add}
      </Button>
    </>
  );
}

/** The small image forms of the questions and their options, empty: their fields are in the question cards (`QuestionImage`). */
export function QuestionImageForms({ questions }: { questions: { id: string; optionIds: string[] }[] }) {
  const targets = questions.flatMap(({ id, optionIds }): ImageTarget[] => [{ questionId: id }, ...optionIds.map((optionId) => ({ questionId: id, optionId }))]);
  return (
    <>
      {targets.map((target) => (
        <Form key={formIdOf(target)} id={formIdOf(target)} method="post" encType="multipart/form-data" className="hidden">
          <CsrfInput />
          <input type="hidden" name="questionId" value={target.questionId} />
          {target.optionId ? <input type="hidden" name="optionId" value={target.optionId} /> : null}
        </Form>
      ))}
    </>
  );
}
