/**
 * Remote pictures only from declared hosts (issue 28, issue 39): a picture written into Markdown text
 * (`![…](https://host/p.gif)`) must be on a host a picture field of the course names (an image block,
 * a banner, a poster, the picture of a choice, scene, step, event or labelled graphic), or the write is
 * refused naming the URL and the rule. Checked when the edit commits, so a text and the image block that
 * declares its host may come in either order in one call; the course's stored blocks are read only when
 * the edit's own blocks do not declare every host it uses.
 */
import { blockPictureOrigins, markdownTextsOf, remotePicturesOf } from "../render/picture-hosts.ts";
import type { StoreTransaction } from "../store/types.ts";
import { invalidArgument } from "./errors.ts";

interface PendingPicture {
  readonly field: string;
  readonly url: string;
  readonly origin: string;
}

/** What an edit wrote about pictures: the hosts its picture fields declare and the Markdown pictures to check. */
export class PicturesToCheck {
  readonly declared = new Set<string>();
  readonly pending: PendingPicture[] = [];

  /** Notes the block's (or banner's) picture hosts and the remote pictures of its Markdown, `field` its path. */
  note(block: { type: string } & object, field: string): void {
    blockPictureOrigins(block, this.declared);
    for (const text of markdownTextsOf(block, field)) {
      for (const picture of remotePicturesOf(text.text)) this.pending.push({ field: text.field, ...picture });
    }
  }
}

/** The picture hosts the course's stored blocks and banners declare (the edit's own rows among them). */
async function storedPictureOrigins(tx: StoreTransaction, courseId: string): Promise<Set<string>> {
  const origins = new Set<string>();
  for (const lesson of await tx.listInCourse("lesson", courseId)) if (lesson.banner) blockPictureOrigins({ type: "image", ...lesson.banner }, origins);
  for (const block of await tx.listInCourse("block", courseId)) blockPictureOrigins({ type: block.type, ...block.body }, origins);
  return origins;
}

function undeclaredPicture(picture: PendingPicture): Error {
  const host = picture.origin === "//" ? "no scheme, so no declared host" : picture.origin;
  return invalidArgument(
    picture.field,
    `the Markdown picture "${picture.url}" is on ${host}, which no picture field of this course declares. ` +
      "Pages load remote pictures only from hosts an image block, banner, poster or other picture field of the course names " +
      "(a picture in text declares nothing, so a tracking pixel cannot ride along): upload it with upload_asset and use an image block, " +
      "or add an image block with a picture on that host, or remove the picture",
    { url: picture.url, rule: "remote_picture_host" },
  );
}

/** Refuses the edit when a Markdown picture it wrote is on a host no picture field of the course declares. */
export async function checkPictureHosts(pictures: PicturesToCheck, tx: StoreTransaction, courseId: string): Promise<void> {
  let open = pictures.pending.filter((picture) => !pictures.declared.has(picture.origin));
  if (open.length === 0) return;
  const stored = await storedPictureOrigins(tx, courseId);
  open = open.filter((picture) => !stored.has(picture.origin));
  if (open[0]) throw undeclaredPicture(open[0]);
}
