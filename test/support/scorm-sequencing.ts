/**
 * What an LMS reads from a SCORM 2004 manifest to sequence it: each leaf item's rollup and delivery
 * controls (with the defaults IMS SS gives an absent attribute), its primary objective and its SCO's
 * launch page, turned into the activity tree scorm-again's sequencing engine takes.
 */

export interface ItemSequencing {
  readonly identifier: string;
  readonly title: string;
  readonly href: string;
  readonly rollupObjectiveSatisfied: boolean;
  readonly rollupProgressCompletion: boolean;
  readonly objectiveMeasureWeight: number;
  readonly objectiveSetByContent: boolean;
  readonly completionSetByContent: boolean;
  readonly primaryObjectiveId: string | null;
}

export function leafItems(manifest: string): ItemSequencing[] {
  const hrefs = new Map([...manifest.matchAll(/<resource identifier="([^"]+)"[^>]* href="([^"]+)"/g)].map((match) => [match[1] ?? "", match[2] ?? ""]));
  return [...manifest.matchAll(/<item identifier="([^"]+)" identifierref="([^"]+)">\s*<title>([^<]*)<\/title>([\s\S]*?)<\/item>/g)].map((match) => {
    const body = match[4] ?? "";
    const attribute = (element: string, name: string, fallback: string): string => new RegExp(`<imsss:${element} [^>]*${name}="([^"]+)"`).exec(body)?.[1] ?? fallback;
    return {
      identifier: match[1] ?? "",
      title: match[3] ?? "",
      href: hrefs.get(match[2] ?? "") ?? "",
      rollupObjectiveSatisfied: attribute("rollupRules", "rollupObjectiveSatisfied", "true") === "true",
      rollupProgressCompletion: attribute("rollupRules", "rollupProgressCompletion", "true") === "true",
      objectiveMeasureWeight: Number(attribute("rollupRules", "objectiveMeasureWeight", "1")),
      objectiveSetByContent: attribute("deliveryControls", "objectiveSetByContent", "false") === "true",
      completionSetByContent: attribute("deliveryControls", "completionSetByContent", "false") === "true",
      primaryObjectiveId: /<imsss:primaryObjective objectiveID="([^"]+)"/.exec(body)?.[1] ?? null,
    };
  });
}

/** scorm-again's `sequencing.activityTree` for an organization of leaf items (choice and flow allowed). */
export function activityTree(organizationId: string, items: readonly ItemSequencing[]): Record<string, unknown> {
  return {
    id: organizationId,
    title: "Course",
    sequencingControls: { choice: true, flow: true },
    children: items.map((item) => ({
      id: item.identifier,
      title: item.title,
      sequencingControls: { rollupObjectiveSatisfied: item.rollupObjectiveSatisfied, rollupProgressCompletion: item.rollupProgressCompletion, objectiveMeasureWeight: item.objectiveMeasureWeight },
      deliveryControls: { tracked: true, completionSetByContent: item.completionSetByContent, objectiveSetByContent: item.objectiveSetByContent },
      ...(item.primaryObjectiveId ? { primaryObjective: { objectiveID: item.primaryObjectiveId, satisfiedByMeasure: false } } : {}),
    })),
  };
}
