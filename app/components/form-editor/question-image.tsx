import { useRef, useState } from "react";
import { Form } from "react-router";
import { Button } from "~/components/button.tsx";
import { CsrfInput } from "~/components/csrf-input.tsx";
import { cx } from "~/components/cx.ts";
import { Field } from "~/components/field.tsx";
import { FormImage } from "~/components/form-image.tsx";
import type { TestImage } from "~/features/submissions/test-link-page.ts";
import { useHydrated } from "~/components/use-hydrated.ts";
import { useT } from "~/i18n/hooks.ts";

/** What the editor knows of its questions' images: by saved question id, with the last refused post's errors. */
export type EditorImages = {
  byQuestion: Record<string, TestImage>;
  refused?: { questionId: string; fieldErrors: Record<string, string> } | undefined;
};

const formIdOf = (questionId: string) => `image-form-${questionId}`;

/**
 * One question's image in the editor (docs/api-contract.md §22): the image with its description,
 * and a small form of its own (file, description, "Add the image" or "Remove the image"), posted as
 * multipart to the editor's page without JavaScript. Its fields sit in the question's card but belong
 * to a form outside the editor's (the `form` attribute: forms do not nest). With JavaScript, an image
 * dropped on the question's card fills the file field.
 */
export function QuestionImage({ questionId, n, images }: { questionId: string | undefined; n: number; images: EditorImages }) {
  const t = useT().formImages;
  const fileRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const hydrated = useHydrated();
  if (!questionId) return <p className="mt-3 text-sm text-slate-600">{t.saveFirst}</p>;
  const image = images.byQuestion[questionId] ?? null;
  const errors = images.refused?.questionId === questionId ? images.refused.fieldErrors : {};
  const form = formIdOf(questionId);
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
      {image ? (
        <div className="mb-3">
          <p className="text-sm text-slate-700">
            {t.shown} <span className="italic">{image.alt}</span>
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
            <>
              {t.fileHint}
              {hydrated ? ` ${t.drop}` : null}
            </>
          }
          error={errors.file}
        />
        <Field form={form} name="imageAlt" maxLength={500} label={t.alt} description={t.altHint} defaultValue={image?.alt ?? ""} error={errors.imageAlt} />
      </div>
      <Button type="submit" form={form} name="intent" value="image" size="sm" className="mt-3">
        {image ? t.replace : t.add}
      </Button>
    </fieldset>
  );
}

/** The questions' small image forms, empty: their fields are in the question cards (`QuestionImage`). */
export function QuestionImageForms({ questionIds }: { questionIds: string[] }) {
  return (
    <>
      {questionIds.map((questionId) => (
        <Form key={questionId} id={formIdOf(questionId)} method="post" encType="multipart/form-data" className="hidden">
          <CsrfInput />
          <input type="hidden" name="questionId" value={questionId} />
        </Form>
      ))}
    </>
  );
}
