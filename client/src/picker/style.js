// The picker's shadow stylesheet. Theming goes through the custom
// properties on :host (set them on the element from the page); light by
// default, dark under prefers-color-scheme or theme="dark".
const dark = '--es-bg:#1f2125;--es-fg:#eceef1;--es-muted:#a9aeb6;--es-border:#454a52;--es-hover:#33373d;--es-accent:#8ab4ff;--es-input:#2a2d32;color-scheme:dark'
export const CSS = `
:host{--es-bg:#fff;--es-fg:#1d1f23;--es-muted:#5b616b;--es-border:#d3d6db;--es-hover:#eef1f5;--es-accent:#1d5fd6;--es-input:#f6f7f9;--es-cell:2.5rem;--es-emoji:1.6rem;--es-radius:.6rem;--es-width:22rem;--es-height:24rem;
display:inline-block;box-sizing:border-box;width:min(100%,var(--es-width));color:var(--es-fg);background:var(--es-bg);border:1px solid var(--es-border);border-radius:var(--es-radius);font:14px/1.3 system-ui,sans-serif;color-scheme:light}
@media (prefers-color-scheme:dark){:host(:not([theme=light])){${dark}}}
:host([theme=dark]){${dark}}
*{box-sizing:border-box}
.p{display:flex;flex-direction:column;height:var(--es-height)}
.top{display:flex;gap:.4rem;padding:.5rem}
input{flex:1;min-width:0;font:inherit;font-size:1rem;padding:.45rem .6rem;border:1px solid var(--es-border);border-radius:calc(var(--es-radius) - .2rem);background:var(--es-input);color:var(--es-fg)}
input:focus{outline:2px solid var(--es-accent);outline-offset:1px}
button{font:inherit;color:inherit;background:none;border:1px solid transparent;border-radius:.4rem;cursor:pointer;padding:0}
button:focus-visible{outline:2px solid var(--es-accent)}
.tone{width:2.3rem;font-size:1.3rem}
.tones{display:flex;flex-wrap:wrap;gap:.2rem;padding:0 .5rem .4rem}
.tones[hidden],.empty[hidden]{display:none}
.tones button{width:2.2rem;height:2.2rem;font-size:1.3rem}
.tones [aria-checked=true]{border-color:var(--es-accent)}
nav:not([hidden]){display:flex;border-bottom:1px solid var(--es-border);padding:0 .3rem;overflow-x:auto}
nav button{flex:1 0 auto;min-width:2rem;height:2.1rem;font-size:1.15rem;border-radius:0;border-bottom:2px solid transparent}
nav [aria-current=true]{border-bottom-color:var(--es-accent)}
.list{flex:1;overflow-y:auto;padding:.2rem .4rem;position:relative;outline:none}
.h{font-size:.8rem;color:var(--es-muted);padding:.5rem .2rem .2rem;position:sticky;top:-.2rem;background:var(--es-bg);z-index:1}
.cells{display:grid;grid-template-columns:repeat(auto-fill,minmax(var(--es-cell),1fr))}
.o{height:var(--es-cell);display:flex;align-items:center;justify-content:center;font-size:var(--es-emoji);border-radius:.4rem;cursor:pointer;user-select:none;line-height:1}
.o[hidden]{display:none}
.o,.big,.tone,.tones button,nav button{font-family:"Apple Color Emoji","Segoe UI Emoji","Noto Color Emoji",sans-serif}
.o:hover{background:var(--es-hover)}
.o.a{background:var(--es-hover);outline:2px solid var(--es-accent);outline-offset:-2px}
.o img,.big img{width:1em;height:1em}
.empty{padding:2rem 1rem;text-align:center;color:var(--es-muted)}
.pv{display:flex;align-items:center;gap:.6rem;min-height:3.4rem;padding:.4rem .7rem;border-top:1px solid var(--es-border)}
.big{font-size:2rem;line-height:1}
.nm{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.sc{color:var(--es-muted);font-size:.8rem}
.pv div{min-width:0}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`
