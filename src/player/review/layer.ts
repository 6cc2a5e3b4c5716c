/**
 * The review package's comment layer, run after the course player: a "Comment" button after each block,
 * a side panel (a sheet at the bottom on a phone) with the reviewer's name, the comment form (kind, what
 * in the block, quoted words, a time in a video), the comments so far (changeable and deletable until
 * they go into a file, answerable with a reply), and "Save comments", which downloads one JSON file. It
 * works from `file://`: storage is the browser's, the file a download. Keyboard and screen reader: every
 * control is labelled, focus moves into the form and back to the block, a live region says what happened.
 */
import { reviewBlockAttribute, reviewCommentKinds, type ReviewBlockAnchor, type ReviewCommentKind, type ReviewLayerConfig } from "../../page-contract/review.ts";
import { button, field, fill, make } from "./dom.ts";
import { commentsFile, commentsFileName, formatTime, keepState, loadState, newCommentId, parseTime, type KeptComment, type ReviewState } from "./state.ts";
import { reviewStyles } from "./styles.ts";

interface Draft {
  blockId: string;
  editing?: string;
  replyTo?: string;
  opener?: HTMLElement;
}

interface Layer {
  readonly config: ReviewLayerConfig;
  readonly state: ReviewState;
  readonly root: HTMLElement;
  readonly toggle: HTMLButtonElement;
  readonly panel: HTMLElement;
  readonly live: HTMLElement;
  readonly nameInput: HTMLInputElement;
  readonly form: HTMLFormElement;
  readonly list: HTMLElement;
  draft: Draft | null;
  /** The block a reviewer wanted to comment on before typing their name: its form opens once the name is saved. */
  pending: Draft | null;
  selection: { blockId: string; text: string } | null;
}

function announce(layer: Layer, message: string): void {
  // Emptied first, so the same words said twice are still read.
  layer.live.textContent = "";
  window.setTimeout(() => (layer.live.textContent = message), 50);
}

function save(layer: Layer): void {
  keepState(layer.config.round.id, layer.state);
  layer.toggle.textContent = fill(layer.config.text.openPanel, { count: layer.state.comments.length });
}

function setOpen(layer: Layer, open: boolean): void {
  layer.panel.hidden = !open;
  layer.toggle.setAttribute("aria-expanded", String(open));
  document.body.classList.toggle("rv-open", open);
}

function addStyles(): void {
  const style = make("style", {}, reviewStyles);
  const nonce = (document.currentScript as HTMLScriptElement | null)?.nonce;
  if (nonce) style.nonce = nonce;
  document.head.append(style);
}

function describeWhere(config: ReviewLayerConfig, comment: KeptComment): string {
  const anchor = config.blocks[comment.anchor.id];
  const where = anchor ? fill(config.text.where, { lesson: anchor.lessonTitle, number: anchor.number }) : comment.anchor.id;
  const parts = [where];
  if (comment.choice !== undefined) parts.push(fill(config.text.aboutChoice, { number: comment.choice + 1, text: comment.choiceText ?? "" }));
  if (comment.videoTime !== undefined) parts.push(fill(config.text.atTime, { time: formatTime(comment.videoTime) }));
  return parts.join(" · ");
}

function showBlock(layer: Layer, blockId: string): void {
  const anchor = layer.config.blocks[blockId];
  if (anchor) window.CourseRuntime?.goToLesson(anchor.lessonId);
  const element = document.querySelector<HTMLElement>(`[${reviewBlockAttribute}="${CSS.escape(blockId)}"]`);
  const target = element?.nextElementSibling?.querySelector<HTMLElement>(".rv-add") ?? null;
  element?.scrollIntoView({ block: "center" });
  element?.classList.add("rv-flash");
  window.setTimeout(() => element?.classList.remove("rv-flash"), 2000);
  if (window.matchMedia("(max-width: 40rem)").matches) setOpen(layer, false);
  target?.focus();
}

function commentItem(layer: Layer, comment: KeptComment, replies: Map<string, KeptComment[]>): HTMLLIElement {
  const { text } = layer.config;
  const item = make("li", { "data-comment": comment.id });
  const badge = make("span", { class: "rv-badge", "data-kind": comment.kind }, text.kinds[comment.kind]);
  const head = make("p", { class: "rv-meta" });
  head.append(badge, ` ${comment.author}`);
  item.append(head, make("p", { class: "rv-where" }, describeWhere(layer.config, comment)));
  if (comment.quote) item.append(make("p", { class: "rv-where" }, fill(text.onQuote, { quote: comment.quote })));
  item.append(make("p", { class: "rv-text" }, comment.text));
  if (comment.saved) item.append(make("p", { class: "rv-meta" }, text.locked));
  const actions = make("div", { class: "rv-actions" });
  const label = (verb: string) => `${verb}: ${text.kinds[comment.kind]}, ${comment.text.slice(0, 40)}`;
  const show = button(text.showInCourse, "", { "aria-label": label(text.showInCourse) });
  show.addEventListener("click", () => showBlock(layer, comment.anchor.id));
  const reply = button(text.reply, "", { "aria-label": label(text.reply) });
  reply.addEventListener("click", () => openForm(layer, { blockId: comment.anchor.id, replyTo: comment.id, opener: reply }));
  actions.append(show, reply);
  if (!comment.saved) {
    const edit = button(text.edit, "", { "aria-label": label(text.edit) });
    edit.addEventListener("click", () => openForm(layer, { blockId: comment.anchor.id, editing: comment.id, opener: edit }));
    const remove = button(text.remove, "", { "aria-label": label(text.remove) });
    remove.addEventListener("click", () => {
      layer.state.comments = layer.state.comments.filter((kept) => kept.id !== comment.id && kept.replyTo !== comment.id);
      save(layer);
      renderList(layer);
      announce(layer, text.removed);
      layer.toggle.focus();
    });
    actions.append(edit, remove);
  }
  item.append(actions);
  const answers = replies.get(comment.id) ?? [];
  if (answers.length > 0) {
    const nested = make("ul", { class: "rv-list", "aria-label": fill(text.replyTo, { author: comment.author }) });
    for (const answer of answers) nested.append(commentItem(layer, answer, replies));
    item.append(nested);
  }
  return item;
}

function renderList(layer: Layer): void {
  const replies = new Map<string, KeptComment[]>();
  const ids = new Set(layer.state.comments.map((comment) => comment.id));
  for (const comment of layer.state.comments) {
    if (comment.replyTo && ids.has(comment.replyTo)) replies.set(comment.replyTo, [...(replies.get(comment.replyTo) ?? []), comment]);
  }
  const top = layer.state.comments.filter((comment) => !comment.replyTo || !ids.has(comment.replyTo));
  layer.list.replaceChildren(...(top.length ? top.map((comment) => commentItem(layer, comment, replies)) : [make("li", {}, layer.config.text.none)]));
}

function kindFieldset(layer: Layer, chosen: ReviewCommentKind): HTMLFieldSetElement {
  const fieldset = make("fieldset");
  fieldset.append(make("legend", {}, layer.config.text.kindLegend));
  for (const kind of reviewCommentKinds) {
    const radio = make("input", { type: "radio", name: "rv-kind", value: kind, id: `rv-kind-${kind}` });
    radio.checked = kind === chosen;
    const label = make("label", { for: radio.id, class: "rv-kind" });
    label.append(radio, layer.config.text.kinds[kind]);
    fieldset.append(label);
  }
  return fieldset;
}

function aboutSelect(layer: Layer, anchor: ReviewBlockAnchor, chosen: number | undefined): HTMLElement[] {
  if (!anchor.choices || anchor.choices.length === 0) return [];
  const select = make("select", { name: "about" });
  select.append(make("option", { value: "" }, layer.config.text.aboutBlock));
  anchor.choices.forEach((choice, index) => {
    const option = make("option", { value: String(index) }, fill(layer.config.text.aboutChoice, { number: index + 1, text: choice }));
    option.selected = chosen === index;
    select.append(option);
  });
  return field("rv-about", layer.config.text.aboutLabel, select);
}

function currentVideoTime(blockId: string): number | undefined {
  const video = document.querySelector<HTMLVideoElement>(`[${reviewBlockAttribute}="${CSS.escape(blockId)}"] video`);
  return video && video.currentTime > 0 ? video.currentTime : undefined;
}

function openForm(layer: Layer, draft: Draft): void {
  const { text } = layer.config;
  const anchor = layer.config.blocks[draft.blockId];
  if (!anchor) return;
  if (!layer.state.reviewer) {
    layer.pending = draft;
    setOpen(layer, true);
    announce(layer, text.nameRequired);
    layer.nameInput.focus();
    return;
  }
  const editing = draft.editing ? layer.state.comments.find((comment) => comment.id === draft.editing) : undefined;
  layer.draft = draft;
  const form = layer.form;
  const heading = make("h3", { id: "rv-form-heading", tabindex: "-1" }, draft.replyTo ? text.replyHeading : editing ? text.editHeading : text.newHeading);
  const where = make("p", { class: "rv-where" }, fill(text.where, { lesson: anchor.lessonTitle, number: anchor.number }));
  const parts: HTMLElement[] = [heading, where, kindFieldset(layer, editing?.kind ?? "suggestion")];
  if (!draft.replyTo) {
    parts.push(...aboutSelect(layer, anchor, editing?.choice));
    const quoted = layer.selection?.blockId === draft.blockId ? layer.selection.text : "";
    const quote = make("input", { type: "text", name: "quote", maxlength: "500" });
    quote.value = editing?.quote ?? quoted;
    parts.push(...field("rv-quote", text.quoteLabel, quote));
    if (anchor.video) {
      const time = make("input", { type: "text", name: "time", inputmode: "numeric", "aria-describedby": "rv-time-error" });
      const seconds = editing?.videoTime ?? currentVideoTime(draft.blockId);
      time.value = seconds === undefined ? "" : formatTime(seconds);
      parts.push(...field("rv-time", text.videoTimeLabel, time), make("p", { id: "rv-time-error", class: "rv-error" }));
    }
  }
  const body = make("textarea", { name: "text", rows: "4", maxlength: "5000", required: "", "aria-describedby": "rv-text-error" });
  body.value = editing?.text ?? "";
  parts.push(...field("rv-text", text.textLabel, body), make("p", { id: "rv-text-error", class: "rv-error" }));
  const actions = make("div", { class: "rv-actions" });
  const submit = make("button", { type: "submit", class: "rv-primary" }, editing ? text.update : text.add);
  const cancel = button(text.cancel);
  cancel.addEventListener("click", () => closeForm(layer));
  actions.append(submit, cancel);
  parts.push(actions);
  form.replaceChildren(...parts);
  form.hidden = false;
  form.setAttribute("aria-labelledby", "rv-form-heading");
  setOpen(layer, true);
  heading.focus();
}

function closeForm(layer: Layer): void {
  const opener = layer.draft?.opener;
  layer.draft = null;
  layer.form.hidden = true;
  layer.form.replaceChildren();
  if (opener && opener.isConnected) opener.focus();
  else layer.toggle.focus();
}

function submitForm(layer: Layer): void {
  const draft = layer.draft;
  const anchor = draft ? layer.config.blocks[draft.blockId] : undefined;
  if (!draft || !anchor) return;
  const { text } = layer.config;
  const form = layer.form;
  const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement | null)?.value.trim() ?? "";
  const kind = (form.querySelector<HTMLInputElement>("input[name=rv-kind]:checked")?.value ?? "suggestion") as ReviewCommentKind;
  const body = value("text");
  const textError = form.querySelector<HTMLElement>("#rv-text-error");
  if (!body) {
    if (textError) textError.textContent = text.textRequired;
    form.querySelector<HTMLElement>("#rv-text")?.setAttribute("aria-invalid", "true");
    form.querySelector<HTMLElement>("#rv-text")?.focus();
    return;
  }
  const timeText = value("time");
  const videoTime = timeText ? parseTime(timeText) : undefined;
  if (videoTime === null) {
    const timeError = form.querySelector<HTMLElement>("#rv-time-error");
    if (timeError) timeError.textContent = text.videoTimeInvalid;
    form.querySelector<HTMLElement>("#rv-time")?.setAttribute("aria-invalid", "true");
    form.querySelector<HTMLElement>("#rv-time")?.focus();
    return;
  }
  const parent = draft.replyTo ? layer.state.comments.find((comment) => comment.id === draft.replyTo) : undefined;
  const choiceValue = value("about");
  const choice = parent ? parent.choice : choiceValue === "" ? undefined : Number(choiceValue);
  const quote = parent ? undefined : value("quote") || undefined;
  const existing = draft.editing ? layer.state.comments.find((comment) => comment.id === draft.editing) : undefined;
  const comment: KeptComment = {
    id: existing?.id ?? newCommentId(),
    anchor: { id: draft.blockId, hash: anchor.hash },
    kind,
    text: body,
    author: existing?.author ?? layer.state.reviewer,
    createdAt: existing?.createdAt ?? new Date().toISOString(),
    ...(quote ? { quote } : {}),
    ...(choice !== undefined ? { choice, choiceText: anchor.choices?.[choice] ?? "" } : {}),
    ...(parent?.videoTime !== undefined ? { videoTime: parent.videoTime } : videoTime !== undefined ? { videoTime } : {}),
    ...(draft.replyTo ? { replyTo: draft.replyTo } : {}),
  };
  layer.state.comments = existing ? layer.state.comments.map((kept) => (kept.id === existing.id ? comment : kept)) : [...layer.state.comments, comment];
  save(layer);
  renderList(layer);
  closeForm(layer);
  announce(layer, existing ? text.updated : text.added);
}

function saveFile(layer: Layer): void {
  const { text, round } = layer.config;
  if (layer.state.comments.length === 0) return announce(layer, text.nothingToSave);
  if (!layer.state.reviewer) {
    announce(layer, text.nameRequired);
    return layer.nameInput.focus();
  }
  const savedAt = new Date().toISOString();
  const file = commentsFile(round, layer.state, savedAt);
  const name = commentsFileName(round, layer.state.reviewer, savedAt);
  const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 1)], { type: "application/json" }));
  const link = make("a", { href: url, download: name });
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
  layer.state.comments = layer.state.comments.map((comment) => ({ ...comment, saved: true }));
  save(layer);
  renderList(layer);
  announce(layer, fill(text.saved, { file: name }));
}

function nameForm(layer: { config: ReviewLayerConfig; state: ReviewState }, input: HTMLInputElement, onSaved: () => void): HTMLFormElement {
  const { text } = layer.config;
  const form = make("form", { class: "rv-name" });
  input.value = layer.state.reviewer;
  input.setAttribute("autocomplete", "name");
  input.setAttribute("aria-describedby", "rv-name-hint");
  const submit = make("button", { type: "submit" }, text.nameSave);
  form.append(...field("rv-name", text.nameLabel, input), make("p", { id: "rv-name-hint", class: "rv-hint" }, text.nameHint), submit);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    onSaved();
  });
  return form;
}

function panelIntro(config: ReviewLayerConfig): HTMLElement[] {
  const { text, round } = config;
  const parts: HTMLElement[] = [make("p", {}, fill(text.intro, { version: round.courseVersion }))];
  if (round.dueDate) parts.push(make("p", {}, fill(text.dueDate, { date: round.dueDate })));
  if (round.note) parts.push(make("h3", {}, text.noteHeading), make("p", { class: "rv-text" }, round.note));
  return parts;
}

function buildLayer(config: ReviewLayerConfig): Layer {
  const { text } = config;
  const state = loadState(config.round.id);
  const root = make("aside", { class: "rv-root", "aria-label": text.panelTitle });
  const toggle = make("button", { type: "button", class: "rv-toggle", "aria-expanded": "false", "aria-controls": "rv-panel" });
  const panel = make("div", { id: "rv-panel", class: "rv-panel" });
  panel.hidden = true;
  const close = button("×", "", { "aria-label": text.closePanel });
  const head = make("div", { class: "rv-head" });
  head.append(make("h2", {}, text.panelTitle), close);
  const live = make("p", { role: "status", "aria-live": "polite", class: "rv-hint" });
  const nameInput = make("input", { type: "text", maxlength: "200" });
  const form = make("form", { class: "rv-form", novalidate: "" });
  form.hidden = true;
  const list = make("ul", { class: "rv-list", "aria-labelledby": "rv-list-heading" });
  const saveButton = button(text.saveFile, "rv-primary");
  const layer: Layer = { config, state, root, toggle, panel, live, nameInput, form, list, draft: null, pending: null, selection: null };
  const names = nameForm(layer, nameInput, () => {
    const name = nameInput.value.trim().slice(0, 200);
    if (!name) return announce(layer, text.nameRequired);
    layer.state.reviewer = name;
    save(layer);
    announce(layer, text.nameSaved);
    const pending = layer.pending;
    layer.pending = null;
    if (pending) openForm(layer, pending);
  });
  panel.append(head, ...panelIntro(config), names, form, make("h3", { id: "rv-list-heading" }, text.listHeading), list, make("div", { class: "rv-actions" }, undefined), live);
  panel.lastElementChild?.previousElementSibling?.append(saveButton);
  root.append(toggle, panel);
  toggle.addEventListener("click", () => setOpen(layer, panel.hidden));
  close.addEventListener("click", () => {
    setOpen(layer, false);
    toggle.focus();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submitForm(layer);
  });
  saveButton.addEventListener("click", () => saveFile(layer));
  panel.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    if (layer.draft) closeForm(layer);
    else {
      setOpen(layer, false);
      toggle.focus();
    }
  });
  return layer;
}

function addBlockButtons(layer: Layer): void {
  for (const element of document.querySelectorAll<HTMLElement>(`[${reviewBlockAttribute}]`)) {
    const blockId = element.getAttribute(reviewBlockAttribute) ?? "";
    const anchor = layer.config.blocks[blockId];
    if (!anchor) continue;
    const bar = make("div", { class: "rv-bar" });
    const add = button(fill(layer.config.text.addComment, { number: anchor.number, lesson: anchor.lessonTitle }), "rv-add");
    add.addEventListener("click", () => openForm(layer, { blockId, opener: add }));
    bar.append(add);
    element.after(bar);
  }
}

/** Remembers the words last selected inside a block, to quote them in that block's comment. */
function followSelection(layer: Layer): void {
  document.addEventListener("selectionchange", () => {
    const selection = document.getSelection();
    const words = selection?.toString().trim() ?? "";
    if (!words || !selection?.anchorNode) return;
    const node = selection.anchorNode instanceof Element ? selection.anchorNode : selection.anchorNode.parentElement;
    const block = node?.closest(`[${reviewBlockAttribute}]`);
    if (block) layer.selection = { blockId: block.getAttribute(reviewBlockAttribute) ?? "", text: words.slice(0, 500) };
  });
}

export function startReviewLayer(config: ReviewLayerConfig): void {
  addStyles();
  const layer = buildLayer(config);
  document.body.append(layer.root);
  addBlockButtons(layer);
  followSelection(layer);
  save(layer);
  renderList(layer);
}
