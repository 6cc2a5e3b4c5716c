/**
 * An XSS corpus for the renderer and a course that carries every payload in every text-bearing field:
 * course title, description, audience, level and objectives, module titles and summaries, lesson
 * titles, and every text field of every block type. The course is built directly (not through the
 * authoring schemas), so fields the schemas would refuse (script URLs, hostile IDs and asset URLs)
 * still reach the renderer, which has to be safe on its own. Payloads call `__xss()` or `alert(1)`.
 */
import type { Block } from "../../src/authoring/schemas/blocks.ts";
import type { RenderableCourse, RenderableLesson, RenderableModule } from "../../src/render/index.ts";

export const xssPayloads: readonly string[] = [
  "<script>__xss()</script>",
  "<img src=x onerror=__xss()>",
  "<svg onload=__xss()>",
  "<svg/onload=alert(1)>",
  "<body onload=__xss()>",
  "[plain](javascript:__xss())",
  "[tab](jav&#x09;ascript:__xss()) [newline](java\nscript:__xss())",
  "[mixed case](JaVaScRiPt:__xss())",
  "[escaped nul](java\\0script:__xss()) [real nul](java\u0000script:__xss())",
  "[entity](&#106;avascript:__xss()) [hex](&#x6A;avascript:alert(1))",
  "[spaced](  javascript:__xss()  ) [angle](<javascript:__xss()>) [vb](vbscript:msgbox(1))",
  "[data link](data:text/html;base64,PHNjcmlwdD5fX3hzcygpPC9zY3JpcHQ+)",
  "![img](javascript:__xss()) ![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9X194c3MoKT4=)",
  "[reference][evil] ![image reference][evil]\n\n[evil]: javascript:__xss()",
  "<javascript:__xss()> <JAVASCRIPT:alert(1)> <data:text/html,__xss()>",
  '<a href="javascript:__xss()">html link</a>',
  '<iframe src="javascript:__xss()"></iframe><object data="javascript:__xss()"></object><embed src="javascript:__xss()">',
  '<style>*{background:url("javascript:__xss()")}</style><div style="width:expression(__xss())">css</div>',
  '<p style="background:url(javascript:__xss())">styled</p>',
  "</textarea><script>__xss()</script>",
  "</title><script>__xss()</script>",
  "</style><script>__xss()</script>",
  "</script><script>__xss()</script>",
  '" onmouseover=__xss() x="',
  "' autofocus onfocus=__xss() x='",
  '"><img src=x onerror=__xss()>',
  "&lt;img src=x onerror=__xss()&gt; &#60;script&#62;__xss()&#60;/script&#62;",
  "\u202e<script>__xss()</script>\u202d \u2028\u2029 \u202egnp.exe",
  "${__xss()} `${alert(1)}` #{__xss()}",
  "{{constructor.constructor('__xss()')()}}",
  '<base href="javascript:__xss()//">',
  '<meta http-equiv="refresh" content="0;url=javascript:__xss()">',
  '<form action="javascript:__xss()"><button>go</button></form><button formaction="javascript:__xss()">x</button>',
  "<math><mtext><table><mglyph><style><img src=x onerror=__xss()>",
  '<noscript><p title="</noscript><img src=x onerror=__xss()>">',
  '<svg><a xlink:href="javascript:__xss()"><text x="20" y="20">svg link</text></a></svg>',
  "<details open ontoggle=__xss()>",
  "<video><source onerror=__xss()></video>",
  "</style><style>body{background:url(//evil)}</style>",
  "<link rel=stylesheet href=//evil/x.css><img src=//evil/x.png>",
  '<!--<img src="--><img src=x onerror=__xss()//">',
  "<scr<script>ipt>__xss()</scr</script>ipt>",
  "javascript:__xss()",
];

/**
 * Asset IDs whose URL the caller's `assetUrl` answers with something hostile: the renderer must drop
 * the script-capable ones and keep the rest inert.
 */
export const hostileAssetUrls: Readonly<Record<string, string>> = {
  ast_js: "javascript:__xss()",
  ast_jstab: "java\tscript:__xss()",
  ast_html: "data:text/html,<script>__xss()</script>",
  ast_xhtml: "DATA:application/xhtml+xml,<script>__xss()</script>",
  ast_svg: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='__xss()'/>",
  ast_quote: 'assets/x.png" onerror="__xss()',
};

/** One block of each of the original types with `payload` in every text field (and an allowed asset as the source). */
export function textBlocks(payload: string, id: (suffix: string) => string): Block[] {
  const feedback = payload;
  return [
    { id: id("text"), type: "text", markdown: payload },
    { id: id("heading"), type: "heading", text: payload, level: 2 },
    { id: id("image"), type: "image", assetId: "ast_image", alt: payload, decorative: false, caption: payload },
    { id: id("video"), type: "video", assetId: "ast_video", title: payload, transcript: payload, captions: { assetId: "ast_captions", language: "en" }, poster: { assetId: "ast_image" } },
    { id: id("audio"), type: "audio", assetId: "ast_audio", title: payload, transcript: payload },
    { id: id("callout"), type: "callout", variant: "warning", title: payload, markdown: payload },
    { id: id("quote"), type: "quote", text: payload, attribution: payload },
    { id: id("code"), type: "code", language: "plaintext", code: payload, caption: payload },
    { id: id("accordion"), type: "accordion", items: [{ title: payload, markdown: payload }, { title: `${payload} 2`, markdown: payload }] },
    { id: id("tabs"), type: "tabs", tabs: [{ title: payload, markdown: payload }, { title: `${payload} 2`, markdown: payload }] },
    { id: id("cards"), type: "flashcards", cards: [{ front: payload, back: payload }] },
    { id: id("single"), type: "single_choice", prompt: payload, points: 1, objectiveIds: [], explanation: payload, choices: [{ text: payload, correct: true, feedback }, { text: `${payload} 2`, correct: false, feedback }] },
    { id: id("multiple"), type: "multiple_choice", prompt: payload, points: 1, objectiveIds: [], explanation: payload, choices: [{ text: payload, correct: true, feedback }, { text: `${payload} 2`, correct: false, feedback }] },
    { id: id("truefalse"), type: "true_false", prompt: payload, points: 1, objectiveIds: [], explanation: payload, answer: true, trueFeedback: feedback, falseFeedback: feedback },
    { id: id("blank"), type: "fill_in_blank", prompt: payload, points: 1, objectiveIds: [], explanation: payload, text: `${payload} {{1}} ${payload}`, blanks: [{ answers: [payload], caseSensitive: false, feedback }] },
    { id: id("matching"), type: "matching", prompt: payload, points: 1, objectiveIds: [], explanation: payload, pairs: [{ left: payload, right: payload, feedback }, { left: `${payload} 2`, right: `${payload} 2`, feedback }] },
    { id: id("ordering"), type: "ordering", prompt: payload, points: 1, objectiveIds: [], explanation: payload, items: [{ text: payload, feedback }, { text: `${payload} 2`, feedback }] },
  ];
}

/** The payload in fields the block schema refuses (URLs, a code language): the renderer must still cope. */
function refusedFieldBlocks(payload: string, id: (suffix: string) => string): Block[] {
  return [
    { id: id("image-url"), type: "image", url: payload, alt: "image from a hostile URL", decorative: false },
    { id: id("video-url"), type: "video", url: payload, transcript: "t", captions: { url: payload }, poster: { url: payload } },
    { id: id("audio-url"), type: "audio", url: payload, transcript: "t", captions: { url: payload } },
    { id: id("code-language"), type: "code", language: payload, code: "x" },
  ];
}

export interface XssCourse {
  readonly course: RenderableCourse;
  /** The lesson ID of each payload's lesson, in payload order. */
  readonly lessonIds: readonly string[];
}

/**
 * The whole corpus as one course: one module and one quiz lesson per payload (so submit and retry
 * run too), and a last lesson whose media point at the hostile asset URLs and whose IDs are payloads.
 * `localOrigin` makes a valid http URL that still tries to break out of its attribute.
 */
export function xssCourse(localOrigin: string): XssCourse {
  const modules: RenderableModule[] = xssPayloads.map((payload, index) => {
    const id = (suffix: string): string => `blk_${index}_${suffix.replace(/-/g, "")}`;
    const lesson: RenderableLesson = {
      id: `les_xss${index}`,
      title: payload,
      kind: "quiz",
      maxAttempts: 3,
      passingScore: 100,
      blocks: [...textBlocks(payload, id), ...refusedFieldBlocks(payload, id)],
    };
    return { id: `mod_xss${index}`, title: payload, summary: payload, objectiveIds: [], lessons: [lesson] };
  });
  const breakout = `${localOrigin}/x.png" onerror="__xss()`;
  const hostile: RenderableLesson = {
    id: 'les_hostile"><img src=x onerror=__xss()>',
    title: "Hostile asset URLs and IDs",
    kind: "content",
    blocks: [
      ...Object.keys(hostileAssetUrls).map((assetId): Block => ({ id: `blk_${assetId}`, type: "image", assetId, alt: assetId, decorative: false })),
      { id: "blk_mediajs", type: "video", assetId: "ast_js", transcript: "t", captions: { assetId: "ast_html" }, poster: { assetId: "ast_svg" } },
      { id: "blk_audiojs", type: "audio", assetId: "ast_jstab", transcript: "t", captions: { assetId: "ast_xhtml" } },
      { id: "blk_breakout", type: "image", url: breakout, alt: breakout, decorative: false },
      { id: '"><script>__xss()</script>', type: "single_choice", prompt: "Hostile block ID", points: 1, objectiveIds: [], choices: [{ text: "a", correct: true }, { text: "b", correct: false }] },
      { id: "blk_ordering'x", type: "ordering", prompt: "Hostile block ID", points: 1, objectiveIds: [], items: [{ text: "a" }, { text: "b" }] },
    ],
  };
  const all = xssPayloads.join(" ");
  const course: RenderableCourse = {
    id: "crs_xss</script><script>__xss()</script>",
    title: all,
    description: xssPayloads.join("\n\n"),
    language: '"><script>__xss()</script>',
    audience: all,
    level: "<img src=x onerror=__xss()>",
    objectives: xssPayloads.map((text, index) => ({ id: `obj_${index}`, text })),
    modules: [...modules, { id: 'mod_"hostile', title: "Hostile", summary: "", lessons: [hostile] }],
  };
  return { course, lessonIds: modules.map((module) => module.lessons[0]?.id ?? "") };
}
