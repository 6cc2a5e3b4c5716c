/**
 * Compact, model-readable signatures of valibot schemas: `flashcards{cards:[{front,back}]}`, with `?`
 * for optional fields and `a|b` for allowed values. They are derived
 * from the same valibot schemas that validate the arguments, so the one-line teaching of the block
 * types in `tools/list` can never drift from what the server accepts, at a tenth of the JSON Schema's size.
 */
import type * as v from "valibot";

type AnySchema = v.GenericSchema & { type: string; [key: string]: unknown };

const optionalTypes = new Set(["optional", "nullish", "exact_optional"]);

function isOptional(schema: AnySchema): boolean {
  return optionalTypes.has(schema.type);
}

function base(schema: AnySchema): AnySchema {
  let current = schema;
  while (optionalTypes.has(current.type) || current.type === "nullable" || Array.isArray(current.pipe)) {
    current = (Array.isArray(current.pipe) ? current.pipe[0] : current.wrapped) as AnySchema;
  }
  return current;
}

/** Schemas printed by name instead of spelled out, e.g. the block union as `Block`. */
export type SignatureNames = ReadonlyMap<v.GenericSchema, string>;

/** The signature of one value schema; scalars print nothing (their name says enough), choices print their values. */
function valueSignature(schema: AnySchema, names: SignatureNames): string {
  const inner = base(schema);
  const named = names.get(inner) ?? names.get(schema);
  if (named) return named;
  switch (inner.type) {
    case "picklist":
      return (inner.options as unknown[]).join("|");
    case "literal":
      return String(inner.literal);
    case "object":
    case "strict_object":
    case "loose_object":
      return objectSignature(inner, [], names);
    case "array": {
      const item = valueSignature(inner.item as AnySchema, names);
      return `[${item || "…"}]`;
    }
    case "variant":
    case "union":
      return (inner.options as AnySchema[]).map((option) => valueSignature(option, names)).join("|");
    default:
      return "";
  }
}

/** `{a,b?,c:x|y}`; the discriminator field (`type`, `op`) is left out by the caller's choice. */
export function objectSignature(schema: AnySchema, omit: readonly string[] = [], names: SignatureNames = new Map()): string {
  const entries = base(schema).entries as Record<string, AnySchema>;
  const fields = Object.entries(entries)
    .filter(([name]) => !omit.includes(name))
    .map(([name, entry]) => {
      const value = valueSignature(entry, names);
      return `${name}${isOptional(entry) ? "?" : ""}${value ? `:${value}` : ""}`;
    });
  return `{${fields.join(",")}}`;
}

/** One line per option of a discriminated union: `text{markdown}`, `heading{text,level?:2|3|4}`… */
export function variantSignatures(schema: v.GenericSchema, key: string, names: SignatureNames = new Map()): string[] {
  const options = (base(schema as AnySchema).options ?? []) as AnySchema[];
  return options.map((option) => {
    const discriminator = base((base(option).entries as Record<string, AnySchema>)[key] as AnySchema);
    return `${String(discriminator.literal)}${objectSignature(option as AnySchema, [key], names)}`;
  });
}
