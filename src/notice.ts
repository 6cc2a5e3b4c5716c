/**
 * Something a use case tells the author beside its result: content a format could not carry, a part of
 * an import kept in another form, a player shown in English. Adapters forward notices as they can (the
 * MCP layer as log messages of the call); the level says how much it matters.
 */
export interface Notice {
  /** warning: something was left out or changed; notice: worth knowing; info: for the record. */
  level: "warning" | "notice" | "info";
  text: string;
}
