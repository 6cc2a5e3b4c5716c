/**
 * Reads a QTI 2.1 or 3.0 content package (a zip with `imsmanifest.xml`) into pools: each test section
 * is a pool (its `selection` the draw, its pass mark from the test's PASS outcome), items no test uses
 * form one more. Choice, order, match and text-entry interactions become question blocks; modal
 * feedback named after a choice, pair or blank becomes its feedback, `EXPLANATION` (and any other
 * feedback, noted) the explanation; pictures on choices become assets. A manifest or item that points
 * outside the package, or at a picture the package does not hold, is an error naming it.
 */
import { inflateEntry, readCentralDirectory } from "../../codecs/archive.ts";
import { unsafeEntryName, type ZipEntry } from "../../codecs/zip-read.ts";
import { qti21Name } from "./qti-names.ts";
import { moreInteractions, readMoreItem } from "./qti-read-more.ts";
import { imageSize } from "../../codecs/image-size.ts";
import { BankBuilder, itemError, type ImportedBank, type ImportedPool } from "../question-bank/bank-plan.ts";
import { WorkSlicer, yieldToEventLoop } from "../../codecs/event-loop.ts";
import { childElement, childElements, descendants, readXmlTree, textContent, type XmlTree } from "../question-bank/xml-tree.ts";

const qti3Namespace = "http://www.imsglobal.org/xsd/imsqtiasi_v3p0";
const qti21Namespace = "http://www.imsglobal.org/xsd/imsqti_v2p1";

/** Item bytes read between two yields to the event loop, and what even the smallest item counts for. */
const itemBytesPerSlice = 64 * 1024;
const minimumItemCost = 4 * 1024;

const supportedInteractions = new Set<string>(["choiceInteraction", "orderInteraction", "matchInteraction", "textEntryInteraction", ...moreInteractions]);

export type QtiVersionRead = "qti21" | "qti3";

/** QTI 3.0's names as QTI 2.1's, so one reader serves both. */
function normalised(node: XmlTree): XmlTree {
  const qti3 = node.namespace === qti3Namespace && node.name.startsWith("qti-");
  const attributes = qti3 ? Object.fromEntries(Object.entries(node.attributes).map(([key, value]) => [key.includes(":") ? key : qti21Name(key), value])) : node.attributes;
  const children: XmlTree[] = [];
  const content = node.content.map((part) => {
    if (typeof part === "string") return part;
    const child = normalised(part);
    children.push(child);
    return child;
  });
  return { name: qti3 ? qti21Name(node.name) : node.name, namespace: node.namespace === qti3Namespace ? qti21Namespace : node.namespace, attributes, children, content };
}

/** A path relative to `base`'s folder, or null when it climbs out of the package or is absolute. */
function resolvePath(base: string, href: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith("/")) return null;
  const parts = base.split("/").slice(0, -1);
  for (const part of decodeURI(href.split("#")[0] ?? "").split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  const path = parts.join("/");
  return unsafeEntryName(path) ? null : path;
}

class Package {
  private readonly entries: Map<string, ZipEntry>;

  constructor(private readonly bytes: Uint8Array) {
    this.entries = new Map(readCentralDirectory(bytes).map((entry) => [entry.name, entry]));
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  async bytesOf(path: string): Promise<Uint8Array | null> {
    const entry = this.entries.get(path);
    return entry ? inflateEntry(this.bytes, entry) : null;
  }

  async xml(path: string): Promise<XmlTree | null> {
    return (await this.xmlAndSize(path))?.tree ?? null;
  }

  /** The part as a tree, with its size in bytes (how much work reading it was). */
  async xmlAndSize(path: string): Promise<{ tree: XmlTree; size: number } | null> {
    const bytes = await this.bytesOf(path);
    if (!bytes) return null;
    const tree = await readXmlTree(new TextDecoder().decode(bytes), path);
    // Each pass over a large part in a turn of its own: parsing, building, renaming, then reading the item.
    if (bytes.byteLength >= itemBytesPerSlice) await yieldToEventLoop();
    return { tree: normalised(tree), size: bytes.byteLength };
  }
}

const paragraphsOf = (nodes: readonly XmlTree[]): string =>
  nodes
    .map((node) => textContent(node).trim())
    .filter((text) => text !== "")
    .join("\n\n");

/** A node's text without the elements named (interactions, feedback inside choices, pictures). */
function textWithout(node: XmlTree, skipped: ReadonlySet<string>): string {
  return node.content.map((part) => (typeof part === "string" ? part : skipped.has(part.name) ? "" : textWithout(part, skipped))).join("");
}

const inChoice = new Set(["img", "feedbackInline", "feedbackBlock"]);

/** A choice's feedback: the item's modal feedback for it, else the feedback written inside the choice (`qti-feedback-inline`). */
function choiceFeedback(choice: XmlTree, modal: { feedback?: string }): { feedback?: string } {
  if (modal.feedback) return modal;
  const inline = [...descendants(choice, "feedbackInline"), ...descendants(choice, "feedbackBlock")]
    .map((node) => textWithout(node, inChoice).trim())
    .filter((text) => text !== "")
    .join(" ");
  return inline ? { feedback: inline } : {};
}

interface ItemContext {
  readonly item: string;
  readonly path: string;
  readonly pack: Package;
  readonly builder: BankBuilder;
  readonly notes: string[];
}

async function picture(image: XmlTree, context: ItemContext): Promise<{ assetId?: string; url?: string; alt?: string }> {
  const src = image.attributes.src ?? "";
  const alt = image.attributes.alt ? { alt: image.attributes.alt } : {};
  if (/^https?:\/\//.test(src)) return { url: src, ...alt };
  const path = resolvePath(context.path, src);
  if (path === null) throw itemError("QTI", context.item, `shows the picture "${src}", which points outside the package`, { src });
  const bytes = await context.pack.bytesOf(path);
  if (!bytes) throw itemError("QTI", context.item, `shows the picture "${src}", which is not in the package`, { src });
  return { assetId: await context.builder.picture(context.item, path, bytes), ...alt };
}

/** A picture of an `img` or `object`, with the size the item gives it, else the size of the file. */
async function sizedPicture(node: XmlTree, context: ItemContext): Promise<{ assetId?: string; url?: string; alt?: string; width?: number; height?: number }> {
  const src = node.attributes.src ?? node.attributes.data ?? "";
  const alt = node.attributes.alt ?? textContent(node).trim();
  const found = await picture({ ...node, attributes: { ...node.attributes, src, ...(alt ? { alt } : {}) } }, context);
  const given = { width: Number(node.attributes.width), height: Number(node.attributes.height) };
  if (given.width > 0 && given.height > 0) return { ...found, width: given.width, height: given.height };
  const asset = context.builder.assets.find((candidate) => candidate.sourceId === found.assetId);
  const size = asset ? imageSize(asset.bytes, asset.mediaType) : null;
  return size ? { ...found, ...size } : found;
}

interface Feedback {
  readonly identifier: string;
  readonly text: string;
}

function responseValues(declaration: XmlTree | undefined): string[] {
  return childElements(childElement(declaration, "correctResponse"), "value").map((value) => textContent(value).trim());
}

function mappedKeys(declaration: XmlTree | undefined): string[] {
  return childElements(childElement(declaration, "mapping"), "mapEntry")
    .filter((entry) => Number(entry.attributes.mappedValue ?? "0") > 0)
    .map((entry) => entry.attributes.mapKey ?? "");
}

function pointsOf(item: XmlTree, declarations: readonly XmlTree[]): number {
  const outcome = (identifier: string): XmlTree | undefined => childElements(item, "outcomeDeclaration").find((declaration) => declaration.attributes.identifier === identifier);
  const max = Number(textContent(childElement(childElement(outcome("MAXSCORE"), "defaultValue"), "value")).trim() || Number.NaN);
  if (Number.isFinite(max) && max >= 0) return Math.min(max, 1000);
  const normal = Number(outcome("SCORE")?.attributes.normalMaximum ?? Number.NaN);
  if (Number.isFinite(normal) && normal >= 0) return Math.min(normal, 1000);
  const mapped = declarations.flatMap((declaration) => childElements(childElement(declaration, "mapping"), "mapEntry")).reduce((sum, entry) => sum + Math.max(0, Number(entry.attributes.mappedValue ?? "0") || 0), 0);
  return mapped > 0 ? Math.min(mapped, 1000) : 1;
}

/**
 * An item's feedback, indexed by identifier: each choice, pair or blank takes the first entry named
 * `FB_<id>` or `<id>`, and what no one took goes to the explanation, in document order. A search and a
 * splice of the list per choice cost choices × feedback (seconds for a 100 KB item); this costs each once.
 */
class FeedbackIndex {
  private readonly taken: boolean[];
  /** Per identifier, the positions of its entries in document order, and how many of them are taken. */
  private readonly byIdentifier = new Map<string, { positions: number[]; next: number }>();

  constructor(private readonly entries: readonly Feedback[]) {
    this.taken = entries.map(() => false);
    entries.forEach((entry, position) => {
      const queue = this.byIdentifier.get(entry.identifier);
      if (queue) queue.positions.push(position);
      else this.byIdentifier.set(entry.identifier, { positions: [position], next: 0 });
    });
  }

  /** The first untaken entry of `identifier`'s, or -1. Entries are taken first to last, so it is the next one. */
  private head(identifier: string): number {
    const queue = this.byIdentifier.get(identifier);
    return queue && queue.next < queue.positions.length ? (queue.positions[queue.next] as number) : -1;
  }

  /** Feedback of `FB_<id>` or `<id>`, whichever comes first, taken so that it is not also the explanation. */
  take(identifier: string): { feedback?: string } {
    const prefixed = this.head(`FB_${identifier}`);
    const plain = this.head(identifier);
    const position = prefixed < 0 ? plain : plain < 0 ? prefixed : Math.min(prefixed, plain);
    if (position < 0) return {};
    const found = this.entries[position] as Feedback;
    (this.byIdentifier.get(found.identifier) as { next: number }).next += 1;
    this.taken[position] = true;
    return found.text ? { feedback: found.text } : {};
  }

  /** The entries no choice, pair or blank took, in document order. */
  left(): Feedback[] {
    return this.entries.filter((_entry, position) => !this.taken[position]);
  }
}

/** Each `stringMatch` and `match` of the response processing, by the identifiers of the variables it compares. */
function matchesByVariable(root: XmlTree): Map<string, XmlTree[]> {
  const processing = childElement(root, "responseProcessing") ?? root;
  const byVariable = new Map<string, XmlTree[]>();
  for (const match of [...descendants(processing, "stringMatch"), ...descendants(processing, "match")]) {
    const identifiers = new Set(childElements(match, "variable").map((variable) => variable.attributes.identifier ?? ""));
    for (const identifier of identifiers) {
      const list = byVariable.get(identifier);
      if (list) list.push(match);
      else byVariable.set(identifier, [match]);
    }
  }
  return byVariable;
}

async function readItem(root: XmlTree, context: ItemContext): Promise<Record<string, unknown> | string> {
  if (root.name !== "assessmentItem") return `is not an assessment item (root <${root.name}>)`;
  const body = childElement(root, "itemBody");
  if (!body) return "has no item body";
  // An end-attempt button scores nothing: it is no question of its own.
  const interactions = allDescendants(body).filter((node) => node.name.endsWith("Interaction") && node.name !== "endAttemptInteraction");
  const unsupported = interactions.find((interaction) => !supportedInteractions.has(interaction.name));
  if (unsupported) return `its ${unsupported.name} has no equivalent`;
  const kinds = new Set(interactions.map((interaction) => interaction.name));
  if (kinds.size === 0) return "has no interaction";
  // Several text entries (blanks), drop-downs (gaps) or choices (an opinion scale's statements) make one question.
  const many = interactions.length > 1;
  if (kinds.size > 1 || (many && !["textEntryInteraction", "inlineChoiceInteraction", "choiceInteraction"].some((kind) => kinds.has(kind)))) return "has several interactions; a question block has one";
  const declarations = childElements(root, "responseDeclaration");
  // Indexed once: a text entry per blank would otherwise search every declaration.
  const declarationsById = new Map<string, XmlTree>();
  for (const candidate of declarations) if (candidate.attributes.identifier !== undefined && !declarationsById.has(candidate.attributes.identifier)) declarationsById.set(candidate.attributes.identifier, candidate);
  const declaration = (identifier: string | undefined): XmlTree | undefined =>
    identifier === undefined ? declarations.find((candidate) => candidate.attributes.identifier === undefined) : declarationsById.get(identifier);
  const feedback = new FeedbackIndex(
    [...childElements(root, "modalFeedback"), ...descendants(body, "feedbackBlock")].map((node) => {
      const paragraphs = descendants(node, "p");
      return { identifier: node.attributes.identifier ?? "", text: paragraphsOf(paragraphs.length > 0 ? paragraphs : [node]) };
    }),
  );
  const promptDiv = body.children.find((child) => child.name === "div" && child.attributes.class === "prompt");
  const interaction = interactions[0] as XmlTree;
  const interactionPrompt = textContent(childElement(interaction, "prompt")).trim();
  const looseParagraphs = body.children.filter((child) => child.name === "p" && descendants(child, "textEntryInteraction").length === 0);
  let prompt = promptDiv ? paragraphsOf(childElements(promptDiv, "p")) : [paragraphsOf(looseParagraphs), interactionPrompt].filter(Boolean).join("\n\n");
  const base = { points: pointsOf(root, declarations) };
  const finish = (block: Record<string, unknown>): Record<string, unknown> => {
    const left = feedback.left();
    const explanation = left.filter((entry) => entry.identifier === "EXPLANATION").map((entry) => entry.text);
    const others = left.filter((entry) => entry.identifier !== "EXPLANATION" && entry.text);
    if (others.length > 0) context.notes.push(`feedback ${others.map((entry) => entry.identifier).join(", ")} is shown whatever the answer, in the explanation`);
    const text = [...explanation, ...others.map((entry) => entry.text)].join("\n\n");
    return { ...block, prompt: prompt || "(no prompt)", ...base, ...(text ? { explanation: text } : {}) };
  };
  const more = await readMoreItem({ root, body, interactions, declaration, feedbackOf: (identifier) => feedback.take(identifier).feedback, picture: (node) => sizedPicture(node, context), notes: context.notes });
  if (typeof more === "string") return more;
  if (more) {
    if (more.prompt !== undefined && !promptDiv) prompt = more.prompt;
    const { points, ...block } = finish(more.block);
    // An opinion scale has no points: it is never scored.
    return more.block.type === "likert" ? block : { ...block, points };
  }
  if (many && kinds.has("choiceInteraction")) return "has several interactions; a question block has one";
  const choicePictures = childElements(interaction, "simpleChoice").flatMap((choice) => descendants(choice, "img")).length;
  if (descendants(body, "img").length > choicePictures) context.notes.push("a picture outside the choices was dropped: only pictures on choices are kept");
  const shuffle = interaction.attributes.shuffle;
  switch (interaction.name) {
    case "choiceInteraction": {
      const correct = new Set(responseValues(declaration(interaction.attributes.responseIdentifier)).concat(mappedKeys(declaration(interaction.attributes.responseIdentifier))));
      const simple = childElements(interaction, "simpleChoice");
      if (correct.size === 0) return "has no correct response";
      if (root.attributes.label === "true_false" || (simple.length === 2 && simple.every((choice) => ["true", "false"].includes(choice.attributes.identifier ?? "")))) {
        const trueFeedback = feedback.take("true").feedback;
        const falseFeedback = feedback.take("false").feedback;
        return finish({ type: "true_false", answer: correct.has("true"), ...(trueFeedback ? { trueFeedback } : {}), ...(falseFeedback ? { falseFeedback } : {}) });
      }
      const choices: { correct: boolean }[] = [];
      for (const choice of simple) {
        const image = descendants(choice, "img")[0];
        choices.push({
          text: textWithout(choice, inChoice).trim() || (image ? "(picture)" : ""),
          correct: correct.has(choice.attributes.identifier ?? ""),
          ...(choice.attributes.fixed === "true" ? { fixed: true } : {}),
          ...choiceFeedback(choice, feedback.take(choice.attributes.identifier ?? "")),
          ...(image ? { image: await picture(image, context) } : {}),
        } as { correct: boolean });
      }
      const single = interaction.attributes.maxChoices === "1" && correct.size === 1;
      return { ...finish({ type: single ? "single_choice" : "multiple_choice", choices }), ...(shuffle ? { shuffle: shuffle === "true" } : {}) };
    }
    case "orderInteraction": {
      const order = responseValues(declaration(interaction.attributes.responseIdentifier));
      const byId = new Map(childElements(interaction, "simpleChoice").map((choice) => [choice.attributes.identifier ?? "", choice]));
      if (order.length < 2 || order.some((identifier) => !byId.has(identifier))) return "has no complete correct order";
      return finish({ type: "ordering", items: order.map((identifier) => ({ text: textWithout(byId.get(identifier) as XmlTree, inChoice).trim(), ...feedback.take(identifier) })) });
    }
    case "matchInteraction": {
      const [sourceSet, targetSet] = childElements(interaction, "simpleMatchSet");
      const sources = childElements(sourceSet, "simpleAssociableChoice");
      const targets = childElements(targetSet, "simpleAssociableChoice");
      const textOfChoice = (node: XmlTree): string => textWithout(node, inChoice).trim();
      const targetText = new Map(targets.map((target) => [target.attributes.identifier ?? "", textOfChoice(target)]));
      const responseId = interaction.attributes.responseIdentifier;
      const pairs = new Map<string, string>();
      for (const pair of [...responseValues(declaration(responseId)), ...mappedKeys(declaration(responseId))]) {
        const [source = "", target = ""] = pair.split(/\s+/);
        if (!pairs.has(source)) pairs.set(source, target);
      }
      if (sources.some((source) => !pairs.has(source.attributes.identifier ?? ""))) return "does not give every left item its right answer";
      const sorting = root.attributes.label === "sorting" || targets.length !== sources.length || new Set(pairs.values()).size !== pairs.size;
      if (sorting) {
        if (targets.length < 2 || targets.length > 6) return `matches ${sources.length} items to ${targets.length} targets; a sorting question has 2 to 6 categories`;
        return finish({
          type: "sorting",
          categories: targets.map((target) => ({ title: textOfChoice(target) })),
          items: sources.map((source) => ({ text: textOfChoice(source), category: targetText.get(pairs.get(source.attributes.identifier ?? "") ?? "") ?? "", ...feedback.take(source.attributes.identifier ?? "") })),
        });
      }
      return finish({
        type: "matching",
        pairs: sources.map((source) => ({ left: textOfChoice(source), right: targetText.get(pairs.get(source.attributes.identifier ?? "") ?? "") ?? "", ...feedback.take(source.attributes.identifier ?? "") })),
      });
    }
    default: {
      // Text entries: the paragraphs holding them are the sentence, each entry a {{n}} placeholder.
      const sentenceHolder = body.children.find((child) => child.name === "div" && child.attributes.class === "sentence");
      const holders = sentenceHolder ? childElements(sentenceHolder, "p") : body.children.filter((child) => descendants(child, "textEntryInteraction").length > 0 || child.name === "textEntryInteraction");
      const blanks: Record<string, unknown>[] = [];
      // Indexed once: searching the whole response processing per blank is blanks × its size.
      const matchesByIdentifier = matchesByVariable(root);
      const matchesFor = (identifier: string): XmlTree[] => matchesByIdentifier.get(identifier) ?? [];
      const sentence = holders
        .map((holder) => {
          const write = (node: XmlTree): string =>
            node.content
              .map((part) => {
                if (typeof part === "string") return part;
                if (part.name !== "textEntryInteraction") return write(part);
                const identifier = part.attributes.responseIdentifier ?? "";
                const matches = matchesFor(identifier);
                const answers = [...new Set([...responseValues(declaration(identifier)), ...mappedKeys(declaration(identifier)), ...matches.flatMap((match) => childElements(match, "baseValue").map((value) => textContent(value)))])].filter((answer) => answer.trim() !== "");
                const caseSensitive = matches.some((match) => match.name === "match" || match.attributes.caseSensitive === "true");
                blanks.push({ answers, caseSensitive, ...feedback.take(`B${blanks.length + 1}`) });
                return `{{${blanks.length}}}`;
              })
              .join("");
          return holder.name === "textEntryInteraction" ? write({ ...holder, content: [holder] }) : write(holder);
        })
        .join("\n\n");
      if (blanks.some((blank) => (blank.answers as string[]).length === 0)) return "has a text entry without an accepted answer";
      const holding = new Set(holders);
      if (!promptDiv) prompt = paragraphsOf(body.children.filter((child) => child.name === "p" && !holding.has(child)));
      return finish({ type: "fill_in_blank", text: sentence, blanks });
    }
  }
}

function allDescendants(node: XmlTree): XmlTree[] {
  return node.children.flatMap((child) => [child, ...allDescendants(child)]);
}

interface Section {
  readonly title: string;
  readonly select?: number;
  readonly passingScore?: number;
  readonly itemPaths: string[];
}

function sectionsOf(test: XmlTree, testPath: string): Section[] {
  const pass = childElements(childElement(test, "outcomeProcessing"), "setOutcomeValue").find((set) => set.attributes.identifier === "PASS");
  const passValue = Number(textContent(descendants(pass ?? test, "baseValue").at(-1)).trim());
  const sections = descendants(test, "assessmentSection").filter((section) => childElements(section, "assessmentItemRef").length > 0);
  return sections.map((section) => {
    const select = Number(childElement(section, "selection")?.attributes.select ?? Number.NaN);
    const itemPaths = childElements(section, "assessmentItemRef").map((reference) => {
      const resolved = resolvePath(testPath, reference.attributes.href ?? "");
      if (resolved === null) throw itemError("QTI", `${reference.attributes.identifier ?? "?"} of test ${testPath}`, `points outside the package ("${reference.attributes.href ?? ""}")`);
      return resolved;
    });
    return {
      title: section.attributes.title || test.attributes.title || "Imported questions",
      ...(Number.isInteger(select) && select > 0 ? { select } : {}),
      ...(pass && sections.length === 1 && Number.isFinite(passValue) && passValue >= 0 && passValue <= 1 ? { passingScore: Math.round(passValue * 100) } : {}),
      itemPaths,
    };
  });
}

/** The QTI version a manifest declares by its resource types, or null when it is not a QTI package. */
export function qtiVersionOf(manifest: XmlTree): QtiVersionRead | null {
  const types = descendants(manifest, "resource").map((resource) => resource.attributes.type ?? "");
  if (types.some((type) => /^imsqti_(item|test)_xmlv3p0$/.test(type))) return "qti3";
  if (types.some((type) => /^imsqti_(item|test)_xmlv2p[12]$/.test(type))) return "qti21";
  return null;
}

export async function readQtiPackage(bytes: Uint8Array, claimed: QtiVersionRead): Promise<ImportedBank> {
  const pack = new Package(bytes);
  const manifest = pack.has("imsmanifest.xml") ? await readXmlTree(new TextDecoder().decode((await pack.bytesOf("imsmanifest.xml")) ?? new Uint8Array()), "imsmanifest.xml") : null;
  if (!manifest || manifest.name !== "manifest") throw itemError("QTI", "(the package)", "has no imsmanifest.xml at its root, so it is not a QTI content package");
  const version = qtiVersionOf(manifest);
  if (version === null) throw itemError("QTI", "(the package)", "has a manifest with no QTI item or test resources");
  if (version !== claimed) throw itemError("QTI", "(the package)", `is a ${version === "qti3" ? "QTI 3.0" : "QTI 2.1"} package, not ${claimed === "qti3" ? "QTI 3.0" : "QTI 2.1"}; import it with format "${version}"`);
  const builder = new BankBuilder(version === "qti3" ? "QTI 3.0" : "QTI 2.1");
  const itemPaths: string[] = [];
  const sections: Section[] = [];
  for (const resource of descendants(manifest, "resource")) {
    const type = resource.attributes.type ?? "";
    if (!/^imsqti_(item|test)_xmlv/.test(type)) continue;
    const href = resource.attributes.href ?? childElement(resource, "file")?.attributes.href ?? "";
    const path = resolvePath("imsmanifest.xml", href);
    const name = resource.attributes.identifier ?? href;
    if (path === null) throw itemError("QTI", name, `the manifest points outside the package ("${href}")`, { href });
    if (!pack.has(path)) throw itemError("QTI", name, `the manifest names "${path}", which is not in the package`, { href });
    if (type.includes("_item_")) itemPaths.push(path);
    else {
      const test = await pack.xml(path);
      if (test?.name === "assessmentTest") sections.push(...sectionsOf(test, path));
    }
  }
  const placed = new Set<string>();
  const poolsWithPaths: { pool: ImportedPool; paths: string[] }[] = sections.map((section) => ({
    pool: builder.pool(section.title, { ...(section.select ? { drawCount: section.select } : {}), ...(section.passingScore !== undefined ? { passingScore: section.passingScore } : {}) }),
    paths: section.itemPaths,
  }));
  for (const entry of poolsWithPaths) for (const path of entry.paths) placed.add(path);
  const loose = itemPaths.filter((path) => !placed.has(path));
  if (loose.length > 0) poolsWithPaths.push({ pool: builder.pool("Imported questions"), paths: loose });
  // A yield between items, once their bytes add up to a slice: after every large item, and every few
  // small ones (a yield per small item would cost more than reading it).
  const slicer = new WorkSlicer(itemBytesPerSlice);
  for (const { pool, paths } of poolsWithPaths) {
    for (const path of paths) {
      const item = path;
      builder.countItem(item, pool);
      const part = await pack.xmlAndSize(path);
      if (!part) throw itemError("QTI", item, "is named by a test but is not in the package");
      await slicer.done(Math.max(part.size, minimumItemCost));
      const root = part.tree;
      const notes: string[] = [];
      const read = await readItem(root, { item: `${root.attributes.identifier ?? path} (${path})`, path, pack, builder, notes });
      if (typeof read === "string") {
        builder.drop(`${root.attributes.identifier ?? path} (${path})`, read);
        continue;
      }
      const { shuffle, ...block } = read as Record<string, unknown> & { shuffle?: boolean };
      if (shuffle === false) Object.assign(pool, { shuffleChoices: false });
      builder.add(pool, `${root.attributes.identifier ?? path} (${path})`, block, notes);
    }
  }
  return builder.result();
}
