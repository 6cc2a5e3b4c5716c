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
import { BankBuilder, itemError, type ImportedBank, type ImportedPool } from "../question-bank/bank-plan.ts";
import { childElement, childElements, descendants, readXmlTree, textContent, yieldToEventLoop, type XmlTree } from "../question-bank/xml-tree.ts";

const qti3Namespace = "http://www.imsglobal.org/xsd/imsqtiasi_v3p0";
const qti21Namespace = "http://www.imsglobal.org/xsd/imsqti_v2p1";

const supportedInteractions = new Set(["choiceInteraction", "orderInteraction", "matchInteraction", "textEntryInteraction"]);

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
    const bytes = await this.bytesOf(path);
    return bytes ? normalised(await readXmlTree(new TextDecoder().decode(bytes), path)) : null;
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

/** Feedback of `FB_<id>` or `<id>`, taken out of the list so what is left goes to the explanation. */
function takeFeedback(feedback: Feedback[], identifier: string): { feedback?: string } {
  const index = feedback.findIndex((entry) => entry.identifier === `FB_${identifier}` || entry.identifier === identifier);
  if (index < 0) return {};
  const [found] = feedback.splice(index, 1);
  return found?.text ? { feedback: found.text } : {};
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
  if (kinds.size > 1 || (interactions.length > 1 && !kinds.has("textEntryInteraction"))) return "has several interactions; a question block has one";
  const declarations = childElements(root, "responseDeclaration");
  const declaration = (identifier: string | undefined): XmlTree | undefined => declarations.find((candidate) => candidate.attributes.identifier === identifier);
  const feedback: Feedback[] = [...childElements(root, "modalFeedback"), ...descendants(body, "feedbackBlock")].map((node) => ({
    identifier: node.attributes.identifier ?? "",
    text: paragraphsOf(descendants(node, "p").length > 0 ? descendants(node, "p") : [node]),
  }));
  const promptDiv = body.children.find((child) => child.name === "div" && child.attributes.class === "prompt");
  const interaction = interactions[0] as XmlTree;
  const interactionPrompt = textContent(childElement(interaction, "prompt")).trim();
  const looseParagraphs = body.children.filter((child) => child.name === "p" && descendants(child, "textEntryInteraction").length === 0);
  let prompt = promptDiv ? paragraphsOf(childElements(promptDiv, "p")) : [paragraphsOf(looseParagraphs), interactionPrompt].filter(Boolean).join("\n\n");
  const base = { points: pointsOf(root, declarations) };
  const finish = (block: Record<string, unknown>): Record<string, unknown> => {
    const explanation = feedback.filter((entry) => entry.identifier === "EXPLANATION").map((entry) => entry.text);
    const others = feedback.filter((entry) => entry.identifier !== "EXPLANATION" && entry.text);
    if (others.length > 0) context.notes.push(`feedback ${others.map((entry) => entry.identifier).join(", ")} is shown whatever the answer, in the explanation`);
    const text = [...explanation, ...others.map((entry) => entry.text)].join("\n\n");
    return { ...block, prompt: prompt || "(no prompt)", ...base, ...(text ? { explanation: text } : {}) };
  };
  const choicePictures = childElements(interaction, "simpleChoice").flatMap((choice) => descendants(choice, "img")).length;
  if (descendants(body, "img").length > choicePictures) context.notes.push("a picture outside the choices was dropped: only pictures on choices are kept");
  const shuffle = interaction.attributes.shuffle;
  switch (interaction.name) {
    case "choiceInteraction": {
      const correct = new Set(responseValues(declaration(interaction.attributes.responseIdentifier)).concat(mappedKeys(declaration(interaction.attributes.responseIdentifier))));
      const simple = childElements(interaction, "simpleChoice");
      if (correct.size === 0) return "has no correct response";
      if (root.attributes.label === "true_false" || (simple.length === 2 && simple.every((choice) => ["true", "false"].includes(choice.attributes.identifier ?? "")))) {
        const trueFeedback = takeFeedback(feedback, "true").feedback;
        const falseFeedback = takeFeedback(feedback, "false").feedback;
        return finish({ type: "true_false", answer: correct.has("true"), ...(trueFeedback ? { trueFeedback } : {}), ...(falseFeedback ? { falseFeedback } : {}) });
      }
      const choices: { correct: boolean }[] = [];
      for (const choice of simple) {
        const image = descendants(choice, "img")[0];
        choices.push({
          text: textWithout(choice, inChoice).trim() || (image ? "(picture)" : ""),
          correct: correct.has(choice.attributes.identifier ?? ""),
          ...(choice.attributes.fixed === "true" ? { fixed: true } : {}),
          ...takeFeedback(feedback, choice.attributes.identifier ?? ""),
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
      return finish({ type: "ordering", items: order.map((identifier) => ({ text: textWithout(byId.get(identifier) as XmlTree, inChoice).trim(), ...takeFeedback(feedback, identifier) })) });
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
          items: sources.map((source) => ({ text: textOfChoice(source), category: targetText.get(pairs.get(source.attributes.identifier ?? "") ?? "") ?? "", ...takeFeedback(feedback, source.attributes.identifier ?? "") })),
        });
      }
      return finish({
        type: "matching",
        pairs: sources.map((source) => ({ left: textOfChoice(source), right: targetText.get(pairs.get(source.attributes.identifier ?? "") ?? "") ?? "", ...takeFeedback(feedback, source.attributes.identifier ?? "") })),
      });
    }
    default: {
      // Text entries: the paragraphs holding them are the sentence, each entry a {{n}} placeholder.
      const sentenceHolder = body.children.find((child) => child.name === "div" && child.attributes.class === "sentence");
      const holders = sentenceHolder ? childElements(sentenceHolder, "p") : body.children.filter((child) => descendants(child, "textEntryInteraction").length > 0 || child.name === "textEntryInteraction");
      const blanks: Record<string, unknown>[] = [];
      const matchesFor = (identifier: string): XmlTree[] =>
        descendants(childElement(root, "responseProcessing") ?? root, "stringMatch").concat(descendants(childElement(root, "responseProcessing") ?? root, "match")).filter((match) => childElements(match, "variable").some((variable) => variable.attributes.identifier === identifier));
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
                blanks.push({ answers, caseSensitive, ...takeFeedback(feedback, `B${blanks.length + 1}`) });
                return `{{${blanks.length}}}`;
              })
              .join("");
          return holder.name === "textEntryInteraction" ? write({ ...holder, content: [holder] }) : write(holder);
        })
        .join("\n\n");
      if (blanks.some((blank) => (blank.answers as string[]).length === 0)) return "has a text entry without an accepted answer";
      if (!promptDiv) prompt = paragraphsOf(body.children.filter((child) => child.name === "p" && !holders.includes(child)));
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
  for (const { pool, paths } of poolsWithPaths) {
    for (const [index, path] of paths.entries()) {
      if (index % 50 === 49) await yieldToEventLoop();
      const item = path;
      builder.countItem(item, pool);
      const root = await pack.xml(path);
      if (!root) throw itemError("QTI", item, "is named by a test but is not in the package");
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
