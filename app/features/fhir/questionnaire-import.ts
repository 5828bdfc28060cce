import type { FieldMessageKey } from "~/lib/messages.ts";
import { ApiError, badRequest, fieldProblem } from "~/lib/problem.server.ts";
import { KEY_PATTERN, mirroredScore } from "../scoring/scales.ts";
import { EXTENSION, OUR_EXTENSION_PREFIX, SCORE_EXTENSIONS } from "./fhir-extensions.ts";
import type { FhirQuestionnaireInput } from "./fhir-schemas.ts";

/**
 * A FHIR R4 Questionnaire read back into the body of `POST /api/forms` (docs/api-contract.md §17,
 * docs/fhir.md): the inverse of `formToQuestionnaire`, and the reading of a Questionnaire made
 * elsewhere. An element that would change what the respondent sees or how answers score, and
 * that a form cannot hold (a nested item, a condition, an attachment question, a modifier
 * extension, one of our extensions the service does not define), stops the import at the first
 * one met, named by its FHIR path: `item[3].type: "attachment" is not supported.` Elements that
 * only describe the resource (its id, narrative, publisher, codes, other extensions) are left
 * out. Pure: the service validates the body it answers and creates the form (ADR 73).
 */

export const UNSUPPORTED_FHIR_ELEMENT = "UNSUPPORTED_FHIR_ELEMENT";

type Extension = NonNullable<FhirQuestionnaireInput["extension"]>[number];
type Item = NonNullable<FhirQuestionnaireInput["item"]>[number];
type Body = Record<string, unknown>;

/** `path.name`, and `path[index]`: a FHIR path as an integrator reads it. */
const child = (path: string, name: string) => `${path}.${name}`;
const nth = (path: string, index: number) => `${path}[${index}]`;

/** 400 UNSUPPORTED_FHIR_ELEMENT naming the element, and its value when that is what is not supported. */
export function unsupported(path: string, value?: unknown): ApiError {
  const problem = value === undefined ? fieldProblem(path, "fhirElementUnsupported") : fieldProblem(path, "fhirValueUnsupported", JSON.stringify(value));
  return new ApiError(400, UNSUPPORTED_FHIR_ELEMENT, `${path}: ${problem.message}`, [problem]);
}

/** 400 VALIDATION_FAILED naming one element whose value is of the wrong kind. */
function invalid(path: string, key: FieldMessageKey): ApiError {
  const problem = fieldProblem(path, key);
  return badRequest(`${path}: ${problem.message}`, [problem]);
}

/** Whether an element of a loosely read object is there: given, and not an empty list. */
const present = (value: unknown) => value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);

/**
 * Which element of the Questionnaire each field of the form body came from, so that a problem the
 * form's own checks find (a title too long, a band no total reaches) names the element to change.
 */
class Sources {
  private readonly paths = new Map<string, string>();

  set(formPath: string, fhirPath: string) {
    this.paths.set(formPath, fhirPath);
  }

  /** The element a field of the form came from: the nearest one recorded along its path. */
  of(formPath: string): string {
    const parts = formPath.split(".");
    for (let length = parts.length; length > 0; length--) {
      const found = this.paths.get(parts.slice(0, length).join("."));
      if (found !== undefined) return found;
    }
    return formPath;
  }
}

// ---- our complex extensions ------------------------------------------------------------------

type Part = { extension: Extension; path: string };

/** The sub-extensions of one of ours by name; a name it does not define is not supported. */
function partsOf(extension: Extension, path: string, names: readonly string[]): Map<string, Part[]> {
  const parts = new Map<string, Part[]>();
  (extension.extension ?? []).forEach((sub, index) => {
    const at = nth(child(path, "extension"), index);
    if (!names.includes(sub.url)) throw unsupported(child(at, "url"), sub.url);
    parts.set(sub.url, [...(parts.get(sub.url) ?? []), { extension: sub, path: at }]);
  });
  return parts;
}

const readValue = {
  string: ({ extension, path }: Part) => {
    if (extension.valueString === undefined) throw invalid(child(path, "valueString"), "required");
    return extension.valueString;
  },
  code: ({ extension, path }: Part) => {
    const value = extension.valueCode ?? extension.valueString;
    if (value === undefined) throw invalid(child(path, "valueCode"), "required");
    return value;
  },
  decimal: ({ extension, path }: Part) => {
    const value = extension.valueDecimal ?? extension.valueInteger;
    if (value === undefined) throw invalid(child(path, "valueDecimal"), "number");
    return value;
  },
  integer: ({ extension, path }: Part) => {
    const value = extension.valueInteger ?? extension.valueDecimal;
    if (value === undefined || !Number.isInteger(value)) throw invalid(child(path, "valueInteger"), "wholeNumber");
    return value;
  },
  boolean: ({ extension, path }: Part) => {
    if (extension.valueBoolean === undefined) throw invalid(child(path, "valueBoolean"), "invalid");
    return extension.valueBoolean;
  },
};

type Reader = (part: Part) => unknown;

/**
 * Reads named sub-extensions into the fields of one object of the form body (`formPath`), each
 * recorded as the field's source. A field given twice is not supported; one left out stays out,
 * for the form's checks to ask for.
 */
function readParts(parts: Map<string, Part[]>, fields: Record<string, Reader>, formPath: string, sources: Sources): Body {
  const body: Body = {};
  for (const [name, read] of Object.entries(fields)) {
    const [first, second] = parts.get(name) ?? [];
    if (second) throw unsupported(second.path);
    if (!first) continue;
    sources.set(`${formPath}.${name}`, first.path);
    body[name] = read(first);
  }
  return body;
}

const BAND_FIELDS = { min: readValue.decimal, max: readValue.decimal, label: readValue.string, color: readValue.string, critical: readValue.boolean };

function readBand(extension: Extension, path: string, formPath: string, sources: Sources): Body {
  sources.set(formPath, path);
  return readParts(partsOf(extension, path, Object.keys(BAND_FIELDS)), BAND_FIELDS, formPath, sources);
}

function readScoring(extension: Extension, path: string, sources: Sources): Body {
  sources.set("scoring", path);
  const fields = { method: readValue.code, multiplier: readValue.decimal, maxMissing: readValue.integer, display: readValue.code };
  return readParts(partsOf(extension, path, Object.keys(fields)), fields, "scoring", sources);
}

function readSubscale(extension: Extension, path: string, formPath: string, sources: Sources): Body {
  sources.set(formPath, path);
  const fields = { key: readValue.string, name: readValue.string, method: readValue.code, multiplier: readValue.decimal };
  const parts = partsOf(extension, path, [...Object.keys(fields), "item", "band"]);
  const items = (parts.get("item") ?? []).map((part, index) => {
    sources.set(`${formPath}.items.${index}`, part.path);
    return readValue.string(part);
  });
  const scoreRanges = (parts.get("band") ?? []).map((part, index) => readBand(part.extension, part.path, `${formPath}.scoreRanges.${index}`, sources));
  return { ...readParts(parts, fields, formPath, sources), items, scoreRanges };
}

// ---- items -----------------------------------------------------------------------------------

/** Elements of an item that change what is asked or answered, and that a question cannot hold. */
const UNSUPPORTED_ITEM_ELEMENTS = ["enableWhen", "item", "answerValueSet", "initial"] as const;
/** value[x] of an answer option that a form's option can be made from. */
const OPTION_VALUES = ["valueCoding", "valueString", "valueInteger"];

/** The score of an answer option: its ordinal value (on the option or its coding), 0 without one. */
function optionScore(option: NonNullable<Item["answerOption"]>[number], path: string): { score: number; source: string } {
  const places = [
    { list: option.valueCoding?.extension ?? [], at: child(child(path, "valueCoding"), "extension") },
    { list: option.extension ?? [], at: child(path, "extension") },
  ];
  for (const { list, at } of places) {
    const index = list.findIndex((extension) => SCORE_EXTENSIONS.includes(extension.url));
    if (index !== -1) return { score: readValue.decimal({ extension: list[index]!, path: nth(at, index) }) as number, source: nth(at, index) };
  }
  return { score: 0, source: path };
}

/** The text of an answer option: its coding's display (else its code), its string or its integer. */
function optionText(option: NonNullable<Item["answerOption"]>[number], path: string): { text: string | undefined; source: string } {
  if (option.valueCoding) {
    const coding = child(path, "valueCoding");
    return option.valueCoding.display !== undefined
      ? { text: option.valueCoding.display, source: child(coding, "display") }
      : { text: option.valueCoding.code, source: child(coding, "code") };
  }
  if (option.valueString !== undefined) return { text: option.valueString, source: child(path, "valueString") };
  if (option.valueInteger !== undefined) return { text: String(option.valueInteger), source: child(path, "valueInteger") };
  return { text: undefined, source: path };
}

function readOptions(item: Item, path: string, formPath: string, sources: Sources) {
  return (item.answerOption ?? []).map((option, index) => {
    const at = nth(child(path, "answerOption"), index);
    const optionPath = `${formPath}.options.${index}`;
    sources.set(optionPath, at);
    if (present(option.modifierExtension)) throw unsupported(nth(child(at, "modifierExtension"), 0), option.modifierExtension![0]!.url);
    const other = Object.keys(option).find((element) => element.startsWith("value") && !OPTION_VALUES.includes(element));
    if (other) throw unsupported(child(at, other));
    if (option.initialSelected) throw unsupported(child(at, "initialSelected"), true);
    let critical = false;
    (option.extension ?? []).forEach((extension, e) => {
      if (extension.url === EXTENSION.critical) critical = readValue.boolean({ extension, path: nth(child(at, "extension"), e) });
      else if (extension.url.startsWith(OUR_EXTENSION_PREFIX)) throw unsupported(child(nth(child(at, "extension"), e), "url"), extension.url);
    });
    const { text, source: textSource } = optionText(option, at);
    const { score, source: scoreSource } = optionScore(option, at);
    sources.set(`${optionPath}.text`, textSource);
    sources.set(`${optionPath}.score`, scoreSource);
    return { text, score, critical };
  });
}

type ItemExtensions = { reverseScored: boolean; scale: { path: string; range: Body | null } | null };

function readItemExtensions(item: Item, path: string, formPath: string, sources: Sources): ItemExtensions {
  const read: ItemExtensions = { reverseScored: false, scale: null };
  (item.extension ?? []).forEach((extension, index) => {
    const at = nth(child(path, "extension"), index);
    if (extension.url === EXTENSION.reverseScored) read.reverseScored = readValue.boolean({ extension, path: at });
    else if (extension.url === EXTENSION.scale) {
      sources.set(`${formPath}.scale`, at);
      const fields = { points: readValue.integer, min: readValue.integer, max: readValue.integer, minLabel: readValue.string, maxLabel: readValue.string };
      // `points` only says how many options the scale has: they are its points.
      const { points: _points, ...range } = readParts(partsOf(extension, at, Object.keys(fields)), fields, `${formPath}.scale`, sources);
      read.scale = { path: at, range: range.min !== undefined || range.max !== undefined ? range : null };
    } else if (extension.url.startsWith(OUR_EXTENSION_PREFIX)) throw unsupported(child(at, "url"), extension.url);
  });
  return read;
}

function readItem(item: Item, index: number, sources: Sources): Body {
  const path = nth("item", index);
  const formPath = `questions.${index}`;
  sources.set(formPath, path);
  if (present(item.modifierExtension)) throw unsupported(nth(child(path, "modifierExtension"), 0), item.modifierExtension![0]!.url);
  const choice = item.type === "choice";
  if (!choice && item.type !== "text" && item.type !== "string") throw unsupported(child(path, "type"), item.type);
  for (const element of UNSUPPORTED_ITEM_ELEMENTS) if (present(item[element])) throw unsupported(child(path, element));
  if (item.readOnly) throw unsupported(child(path, "readOnly"), true);
  const { reverseScored, scale } = readItemExtensions(item, path, formPath, sources);
  if (item.repeats && (!choice || scale)) throw unsupported(child(path, "repeats"), true);
  if (!choice && scale) throw unsupported(scale.path);
  if (!choice && present(item.answerOption)) throw unsupported(child(path, "answerOption"));
  for (const field of ["text", "type", "required"]) sources.set(`${formPath}.${field}`, child(path, field));
  sources.set(`${formPath}.key`, child(path, "linkId"));
  sources.set(`${formPath}.options`, child(path, "answerOption"));
  const common = {
    text: item.text,
    required: item.required ?? false,
    // A linkId that is no question key (`/44250-9`) leaves the question keyed `q<position>`.
    key: KEY_PATTERN.test(item.linkId) ? item.linkId : null,
  };
  if (!choice) return { ...common, type: "TEXT" };
  const options = readOptions(item, path, formPath, sources);
  // The ordinal values of a reverse-scored item are the mirrored scores: mirrored again, they are the printed ones.
  const ordinals = options.map((option) => option.score);
  const printed = reverseScored ? options.map((option) => ({ ...option, score: mirroredScore(option.score, ordinals) })) : options;
  return {
    ...common,
    type: scale ? "SCALE" : item.repeats ? "MULTIPLE_CHOICE" : "SINGLE_CHOICE",
    reverseScored,
    ...(scale?.range ? { scale: scale.range } : {}),
    options: printed,
  };
}

// ---- the Questionnaire -----------------------------------------------------------------------

const TEXT_EXTENSIONS: Record<string, string> = {
  [EXTENSION.criticalMessage]: "criticalMessage",
  [EXTENSION.category]: "category",
  [EXTENSION.formType]: "type",
  [EXTENSION.targetAudience]: "targetAudience",
};

/**
 * The body of `POST /api/forms` a Questionnaire makes, and where each field came from. Throws the
 * 400 naming the first element that is not supported; what the form's own checks refuse is for the
 * caller to name with `sourceOf`.
 */
export function questionnaireToForm(questionnaire: FhirQuestionnaireInput): { body: Body; sourceOf: (formPath: string) => string } {
  const sources = new Sources();
  if (questionnaire.implicitRules !== undefined) throw unsupported("implicitRules", questionnaire.implicitRules);
  if (present(questionnaire.modifierExtension)) throw unsupported("modifierExtension[0]", questionnaire.modifierExtension![0]!.url);

  const body: Body = {};
  const scoreRanges: Body[] = [];
  const subscales: Body[] = [];
  let scoringAt: string | null = null;
  (questionnaire.extension ?? []).forEach((extension, index) => {
    const path = nth("extension", index);
    if (!extension.url.startsWith(OUR_EXTENSION_PREFIX)) return;
    const textField = TEXT_EXTENSIONS[extension.url];
    if (textField) {
      if (textField in body) throw unsupported(path);
      sources.set(textField, path);
      body[textField] = readValue.string({ extension, path });
    } else if (extension.url === EXTENSION.scoring) {
      if (scoringAt) throw unsupported(path);
      scoringAt = path;
      body.scoring = readScoring(extension, path, sources);
    } else if (extension.url === EXTENSION.scoreBand) {
      scoreRanges.push(readBand(extension, path, `scoreRanges.${scoreRanges.length}`, sources));
    } else if (extension.url === EXTENSION.subscale) {
      subscales.push(readSubscale(extension, path, `subscales.${subscales.length}`, sources));
    } else throw unsupported(child(path, "url"), extension.url);
  });

  const title = questionnaire.title ?? questionnaire.name;
  sources.set("title", questionnaire.title === undefined && questionnaire.name !== undefined ? "name" : "title");
  sources.set("description", "description");
  sources.set("isPublished", "status");
  sources.set("questions", "item");
  sources.set("scoreRanges", "extension");
  sources.set("subscales", "extension");
  const questions = (questionnaire.item ?? []).map((item, index) => readItem(item, index, sources));
  return {
    body: {
      ...body,
      title,
      description: questionnaire.description,
      isPublished: questionnaire.status === "active",
      scoreRanges,
      subscales,
      questions,
    },
    sourceOf: (formPath) => sources.of(formPath),
  };
}
