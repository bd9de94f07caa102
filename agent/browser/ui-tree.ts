/**
 * Runs inside the page: the DOM as a tree of roles, names and bounds in device pixels. Kept as plain
 * JavaScript source because a compiled function could reference helpers the page does not have.
 */
export const UI_TREE_SCRIPT = `(function (scale, limit) {
  var count = 0;
  // Layout coordinates to what the screen shows: a zoomed or scrolled visual viewport moves them.
  var vv = window.visualViewport, vs = vv ? vv.scale : 1, ox = vv ? vv.offsetLeft : 0, oy = vv ? vv.offsetTop : 0;
  var ROLES = { A: 'link', BUTTON: 'button', TEXTAREA: 'textbox', SELECT: 'combobox', IMG: 'img', H1: 'heading', H2: 'heading',
    H3: 'heading', H4: 'heading', H5: 'heading', H6: 'heading', UL: 'list', OL: 'list', LI: 'listitem', NAV: 'navigation',
    MAIN: 'main', FORM: 'form', TABLE: 'table', TR: 'row', TD: 'cell', TH: 'columnheader', P: 'paragraph', LABEL: 'label',
    HEADER: 'banner', FOOTER: 'contentinfo', DIALOG: 'dialog', BODY: 'document' };
  var SKIP = { SCRIPT: 1, STYLE: 1, NOSCRIPT: 1, TEMPLATE: 1, META: 1, LINK: 1 };
  function round(v) { return Math.round(v * scale); }
  function walk(el) {
    if (count >= limit) return null;
    count++;
    var r = el.getBoundingClientRect();
    var x = (r.x - ox) * vs, y = (r.y - oy) * vs, w = r.width * vs, h = r.height * vs;
    var role = el.getAttribute('role') || ROLES[el.tagName] || 'generic';
    if (el.tagName === 'INPUT') {
      var t = (el.type || '').toLowerCase();
      role = t === 'checkbox' ? 'checkbox' : t === 'radio' ? 'radio' : (t === 'button' || t === 'submit') ? 'button' : 'textbox';
    }
    var text = '';
    for (var i = 0; i < el.childNodes.length; i++) if (el.childNodes[i].nodeType === 3) text += el.childNodes[i].textContent;
    text = text.replace(/\\s+/g, ' ').trim().slice(0, 500);
    var value = (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') ? String(el.value || '') : '';
    var name = el.getAttribute('aria-label') || el.getAttribute('alt') || el.getAttribute('title') || value || el.getAttribute('placeholder') || text || '';
    var node = { role: role, name: name.slice(0, 500), tag: el.tagName.toLowerCase(),
      bounds: { x: round(x), y: round(y), width: round(w), height: round(h) }, children: [] };
    if (el.id) node.id = el.id;
    if (text) node.text = text;
    for (var j = 0; j < el.children.length; j++) {
      if (SKIP[el.children[j].tagName]) continue;
      var child = walk(el.children[j]);
      if (child) node.children.push(child);
    }
    return node;
  }
  return { url: location.href, title: document.title, root: walk(document.body || document.documentElement) };
})`;

/** Width and height of a baseline or progressive JPEG, read from its SOF marker. */
export function jpegSize(jpeg: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < jpeg.length) {
    if (jpeg[i] !== 0xff) return null;
    const marker = jpeg[i + 1]!;
    const length = jpeg.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: jpeg.readUInt16BE(i + 5), width: jpeg.readUInt16BE(i + 7) };
    }
    i += 2 + length;
  }
  return null;
}
