/**
 * The sorting question: items to put into categories (phish / not phish). Each item names its category
 * by title, so the check that every `category` is one of the titles is made here, on the item's path.
 */
import * as v from "valibot";
import { markdownField, requiredTextField, titleField } from "./fields.ts";
import { questionEntries } from "./question-blocks.ts";

const sortingFields = v.object({
  type: v.literal("sorting"),
  ...questionEntries,
  categories: v.pipe(v.array(v.object({ title: titleField() })), v.minLength(2, "must have at least 2 categories"), v.maxLength(6, "must have at most 6 categories")),
  items: v.pipe(
    v.array(
      v.object({
        text: requiredTextField(500),
        category: v.pipe(v.string(), v.description("The title of the category this item belongs in.")),
        feedback: v.optional(v.pipe(markdownField(), v.description("Shown when the learner puts this item in the wrong category."))),
      }),
    ),
    v.minLength(2, "must have at least 2 items"),
    v.maxLength(30, "must have at most 30 items"),
  ),
});

export const sortingBlock = v.pipe(
  sortingFields,
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const titles = dataset.value.categories.map((category) => category.title);
    const issue = (path: (string | number)[], message: string): void =>
      addIssue({
        message,
        path: path.map((key) => ({ type: "object", origin: "value", input: dataset.value, key, value: undefined }) as unknown as v.IssuePathItem) as [v.IssuePathItem, ...v.IssuePathItem[]],
      });
    titles.forEach((title, index) => {
      if (titles.indexOf(title) !== index) issue(["categories", index, "title"], `duplicate category "${title}"; each category needs its own title`);
    });
    dataset.value.items.forEach((item, index) => {
      if (!titles.includes(item.category)) issue(["items", index, "category"], `no category "${item.category}"; categories are ${titles.map((title) => `"${title}"`).join(", ")}`);
    });
  }),
);
