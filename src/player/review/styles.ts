/** The review layer's own look: a side panel on wide screens, a sheet across the bottom at 390 px. Colours pass WCAG AA on white. */
export const reviewStyles = `
.rv-bar{margin:.25rem 0 1rem}
.rv-add,.rv-panel button{font:inherit;font-size:.875rem;padding:.35rem .7rem;border:1px solid #0b4f9c;border-radius:.35rem;background:#fff;color:#0b4f9c;cursor:pointer}
.rv-add:focus-visible,.rv-panel :focus-visible{outline:3px solid #b34700;outline-offset:2px}
.rv-panel .rv-primary{background:#0b4f9c;color:#fff}
.rv-root{position:fixed;right:1rem;bottom:1rem;z-index:1000;font-size:1rem;color:#1a1a1a}
.rv-toggle{font:inherit;padding:.6rem 1rem;border:0;border-radius:2rem;background:#0b4f9c;color:#fff;box-shadow:0 2px 8px rgba(0,0,0,.3);cursor:pointer}
.rv-toggle:focus-visible{outline:3px solid #b34700;outline-offset:2px}
.rv-panel{position:fixed;top:0;right:0;bottom:0;width:min(24rem,100vw);box-sizing:border-box;overflow:auto;background:#fff;border-left:1px solid #767676;padding:1rem;box-shadow:-2px 0 12px rgba(0,0,0,.2)}
.rv-panel[hidden]{display:none}
.rv-panel h2{font-size:1.25rem;margin:0}
.rv-panel h3{font-size:1.05rem;margin:1rem 0 .5rem}
.rv-head{display:flex;justify-content:space-between;align-items:center;gap:.5rem}
.rv-panel label,.rv-panel legend{display:block;font-weight:600;margin:.6rem 0 .2rem}
.rv-panel input[type=text],.rv-panel textarea,.rv-panel select{box-sizing:border-box;width:100%;font:inherit;padding:.35rem;border:1px solid #595959;border-radius:.25rem;color:#1a1a1a;background:#fff}
.rv-panel fieldset{border:0;padding:0;margin:0}
.rv-panel .rv-kind{display:inline-flex;align-items:center;gap:.25rem;margin-right:.75rem;font-weight:400}
.rv-panel .rv-hint{font-size:.875rem;color:#4a4a4a;margin:.2rem 0}
.rv-panel .rv-error{color:#b00020;font-weight:600}
.rv-panel .rv-actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.6rem}
.rv-list{list-style:none;padding:0;margin:0}
.rv-list li{border:1px solid #c4c4c4;border-radius:.35rem;padding:.5rem;margin:.5rem 0}
.rv-list .rv-list{margin-left:1rem}
.rv-badge{display:inline-block;font-size:.8rem;font-weight:700;padding:0 .4rem;border-radius:.25rem;background:#e8eef7;color:#123a6b}
.rv-badge[data-kind=error]{background:#fde8e8;color:#8a1010}
.rv-badge[data-kind=approval]{background:#e6f4ea;color:#14532d}
.rv-where,.rv-meta{font-size:.85rem;color:#4a4a4a;margin:.2rem 0}
.rv-text{white-space:pre-wrap;margin:.3rem 0}
.rv-flash{outline:3px solid #b34700;outline-offset:4px}
@media (min-width:60rem){body.rv-open{padding-right:25rem}}
@media (max-width:40rem){.rv-panel{top:auto;left:0;width:100%;max-height:75vh;border-left:0;border-top:1px solid #767676}}
`;
