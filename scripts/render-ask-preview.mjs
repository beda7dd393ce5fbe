// Renders a Block Kit message (the JSON `holdpoint preview-ask` prints) as Slack-like HTML, for the README
// picture: `node scripts/render-ask-preview.mjs preview.json > preview.html`, then a headless browser screenshot:
// `chromium --headless --no-sandbox --disable-gpu --screenshot=docs/ask-preview.png --window-size=760,560 preview.html`
// (Debian: `apt-get install chromium`). `bash scripts/render-ask-pictures.sh` renders every example ask of docs/.
import { readFileSync } from 'node:fs';

const message = JSON.parse(readFileSync(process.argv[2] ?? 0, 'utf8'));
const html = (text) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
// mrkdwn is already escaped by holdpoint (&amp; &lt; &gt;): only turn *bold* and _italic_ into tags.
const mrkdwn = (text) =>
  text
    .replace(/<!date\^\d+\^[^|]*\|([^>]*)>/g, '$1')
    .replace(/\*([^*\n]+)\*/g, '<b>$1</b>')
    .replace(/(^|\s)_([^_\n]+)_/g, '$1<i>$2</i>')
    .replaceAll('\n', '<br>');
const textOf = (object) => (object.type === 'mrkdwn' ? mrkdwn(object.text) : html(object.text));

function element(item) {
  if (item.type === 'button') {
    const style = item.style === 'primary' ? 'primary' : item.style === 'danger' ? 'danger' : '';
    return `<span class="button ${style}">${textOf(item.text)}</span>`;
  }
  if (item.type === 'checkboxes' || item.type === 'radio_buttons') {
    const mark = item.type === 'checkboxes' ? 'box' : 'box round';
    const option = (o) =>
      `<label><span class="${mark}"></span>${textOf(o.text)}${o.description ? `<div class="desc">${textOf(o.description)}</div>` : ''}</label>`;
    return `<div class="checks">${item.options.map(option).join('')}</div>`;
  }
  if (item.type === 'overflow') return '<span class="button overflow">⋯</span>';
  return '';
}

function block(b) {
  switch (b.type) {
    case 'header':
      return `<div class="header">${html(b.text.text)}</div>`;
    case 'section':
      return b.accessory
        ? `<div class="section row"><div>${textOf(b.text)}</div><div>${element(b.accessory)}</div></div>`
        : `<div class="section">${textOf(b.text)}</div>`;
    case 'context':
      return `<div class="context">${b.elements.map(textOf).join(' ')}</div>`;
    case 'actions':
      return `<div class="actions">${b.elements.map(element).join('')}</div>`;
    case 'divider':
      return '<hr>';
    default:
      return '';
  }
}

process.stdout.write(`<!doctype html><meta charset="utf-8"><style>
body{font:15px/1.46 -apple-system,"Segoe UI",Lato,"DejaVu Sans",sans-serif;color:#1d1c1d;margin:0;background:#fff}
.thread{padding:16px 20px}.title{font-weight:900;font-size:18px;padding:12px 20px;border-bottom:1px solid #ddd}
.msg{display:flex;gap:10px;margin-top:14px}.avatar{width:36px;height:36px;border-radius:6px;background:#4a154b;color:#fff;
display:flex;align-items:center;justify-content:center;font-weight:700}.name{font-weight:900}.app{font-size:11px;background:#e8e8e8;
color:#616061;padding:1px 4px;border-radius:3px;margin-left:4px;font-weight:700}.header{font-weight:900;font-size:18px;margin:4px 0}
.section{margin:4px 0}.context{color:#616061;font-size:13px;margin:6px 0}.actions{display:flex;flex-wrap:wrap;gap:8px;margin:8px 0}
.button{border:1px solid #bbb;border-radius:4px;padding:4px 12px;font-weight:700;font-size:14px}
.button.primary{background:#007a5a;color:#fff;border-color:#007a5a}.checks label{display:block;margin:3px 0}
.box{display:inline-block;width:14px;height:14px;border:1px solid #888;border-radius:3px;margin-right:8px;vertical-align:-2px}
.box.round{border-radius:50%}.desc{color:#616061;font-size:13px;margin-left:24px}.checks{width:100%}
.row{display:flex;justify-content:space-between;align-items:flex-start;gap:16px}.overflow{padding:2px 8px;font-weight:900}
.human .avatar{background:#e8912d}</style>
<div class="title">Thread <span style="font-weight:400;color:#616061;font-size:14px">#ops</span></div>
<div class="thread">
<div class="msg human"><div class="avatar">A</div><div><span class="name">alice</span><div>@holdpoint the payments deploy to eu-west-1 failed, what should we do?</div></div></div>
<div class="msg"><div class="avatar">h</div><div style="flex:1;max-width:640px"><span class="name">holdpoint</span><span class="app">APP</span>
${message.blocks.map(block).join('\n')}</div></div></div>`);
