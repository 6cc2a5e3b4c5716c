/** The part of pdfkit (0.20, untyped) the PDF writer uses. */
declare module "pdfkit" {
  interface PdfKitStructure {
    add(child: PdfKitStructure | (() => void)): PdfKitStructure;
    end(): void;
  }
  interface PdfKitOutline {
    addItem(title: string, options?: { expanded?: boolean; pageNumber?: number }): PdfKitOutline;
  }
  interface PdfKitPage {
    readonly width: number;
    readonly height: number;
    readonly margins: { top: number; bottom: number; left: number; right: number };
    maxY(): number;
  }
  class PDFDocument {
    constructor(options?: Record<string, unknown>);
    x: number;
    y: number;
    readonly page: PdfKitPage;
    readonly outline: PdfKitOutline;
    on(event: "data", listener: (chunk: Uint8Array) => void): this;
    on(event: "end", listener: () => void): this;
    on(event: "error", listener: (error: Error) => void): this;
    on(event: "pageAdded", listener: () => void): this;
    registerFont(name: string, source: Uint8Array): this;
    font(name: string): this;
    fontSize(size: number): this;
    fillColor(color: string, opacity?: number): this;
    strokeColor(color: string): this;
    lineWidth(width: number): this;
    text(text: string, x?: number | Record<string, unknown>, y?: number, options?: Record<string, unknown>): this;
    widthOfString(text: string, options?: Record<string, unknown>): number;
    heightOfString(text: string, options?: Record<string, unknown>): number;
    currentLineHeight(includeGap?: boolean): number;
    moveDown(lines?: number): this;
    addPage(options?: Record<string, unknown>): this;
    switchToPage(index: number): this;
    bufferedPageRange(): { start: number; count: number };
    image(source: Uint8Array, x?: number, y?: number, options?: Record<string, unknown>): this;
    openImage(source: Uint8Array): { width: number; height: number };
    rect(x: number, y: number, w: number, h: number): this;
    circle(x: number, y: number, r: number): this;
    moveTo(x: number, y: number): this;
    lineTo(x: number, y: number): this;
    fill(color?: string): this;
    stroke(color?: string): this;
    fillAndStroke(fill?: string, stroke?: string): this;
    save(): this;
    restore(): this;
    struct(type: string, options?: Record<string, unknown> | (() => void), children?: (() => void) | (() => void)[]): PdfKitStructure;
    addStructure(structure: PdfKitStructure): this;
    markContent(tag: string, options?: Record<string, unknown>): this;
    endMarkedContent(): this;
    addNamedDestination(name: string, ...args: unknown[]): void;
    goTo(x: number, y: number, w: number, h: number, name: string, options?: Record<string, unknown>): this;
    table(options: Record<string, unknown>): this;
    end(): void;
    readonly _font: { font?: { hasGlyphForCodePoint(codePoint: number): boolean } } | null;
  }
  export default PDFDocument;
}
