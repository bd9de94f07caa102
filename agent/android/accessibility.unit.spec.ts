import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { androidFindings, contrastRatio, parseHierarchy } from './accessibility.js';

const node = (attrs: Record<string, string>, children = '') =>
  `<node ${Object.entries({ text: '', 'resource-id': '', 'content-desc': '', clickable: 'false', ...attrs }).map(([k, v]) => `${k}="${v}"`).join(' ')}>${children}</node>`;
const screen = (inner: string) => `<?xml version='1.0' ?><hierarchy rotation="0">${node({ class: 'android.widget.FrameLayout', bounds: '[0,0][200,200]' }, inner)}</hierarchy>`;
function png(paint: (set: (x: number, y: number, w: number, h: number, c: [number, number, number]) => void) => void) {
  const image = new PNG({ width: 200, height: 200 });
  image.data.fill(255);
  paint((x, y, w, h, c) => {
    for (let py = y; py < y + h; py++) for (let px = x; px < x + w; px++) image.data.set([...c, 255], (py * 200 + px) * 4);
  });
  return PNG.sync.write(image);
}
const rules = (xml: string, image: Buffer | null = null, density = 160) => androidFindings(xml, image, density).map((f) => [f.ruleId, f.element.selector]);

describe('android accessibility rules', () => {
  it('measures WCAG contrast', () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([118, 118, 118], [255, 255, 255])).toBeGreaterThan(4.5);
    expect(contrastRatio([119, 119, 119], [255, 255, 255])).toBeLessThan(4.55);
  });

  it('names elements by resource id, else by their path of classes', () => {
    const nodes = parseHierarchy(screen(node({ class: 'android.widget.Button', bounds: '[0,0][10,10]' }) + node({ class: 'android.widget.Button', 'resource-id': 'a:id/b', bounds: '[0,0][10,10]' })));
    expect(nodes.map((n) => n.selector)).toEqual(['FrameLayout[0]', 'FrameLayout[0]/Button[0]', 'Button#a:id/b']);
  });

  it('compares touch targets in dp: 60 px are enough at 160 dpi, not at 320', () => {
    const xml = screen(node({ class: 'android.widget.Button', text: 'Go', clickable: 'true', bounds: '[0,0][60,60]' }));
    expect(rules(xml, null, 160)).toEqual([]);
    expect(rules(xml, null, 320)).toEqual([['touch-target-size', 'FrameLayout[0]/Button[0]']]);
  });

  it('wants a label on clickable and image items, found in a non-clickable child too', () => {
    const labelledByChild = node({ class: 'android.widget.LinearLayout', clickable: 'true', bounds: '[0,0][100,100]' }, node({ class: 'android.widget.TextView', text: 'Open', bounds: '[0,0][100,50]' }));
    const image = node({ class: 'android.widget.ImageView', 'resource-id': 'a:id/pic', bounds: '[0,100][100,200]' });
    expect(rules(screen(labelledByChild + image))).toEqual([['missing-label', 'ImageView#a:id/pic']]);
  });

  it('flags descriptions on editable fields, redundant descriptions and duplicate clickable bounds', () => {
    const xml = screen(
      node({ class: 'android.widget.EditText', 'content-desc': 'Name', clickable: 'true', 'resource-id': 'a:id/name', bounds: '[0,0][200,60]' }) +
        node({ class: 'android.widget.ImageButton', 'content-desc': 'Share button', clickable: 'true', 'resource-id': 'a:id/share', bounds: '[0,100][100,200]' }) +
        node({ class: 'android.widget.Button', text: 'Other', clickable: 'true', 'resource-id': 'a:id/other', bounds: '[0,100][100,200]' }),
    );
    expect(rules(xml).sort()).toEqual([
      ['duplicate-clickable-bounds', 'Button#a:id/other'],
      ['editable-content-desc', 'EditText#a:id/name'],
      ['redundant-description', 'ImageButton#a:id/share'],
    ]);
  });

  it('measures text contrast on the screenshot pixels behind the text node', () => {
    const xml = screen(node({ class: 'android.widget.TextView', text: 'Faint', 'resource-id': 'a:id/t', bounds: '[0,0][200,50]' }) + node({ class: 'android.widget.TextView', text: 'Dark', 'resource-id': 'a:id/d', bounds: '[0,100][200,150]' }));
    const image = png((set) => {
      set(10, 10, 50, 20, [210, 210, 210]);
      set(10, 110, 50, 20, [20, 20, 20]);
    });
    expect(rules(xml, image)).toEqual([['text-contrast', 'TextView#a:id/t']]);
    // A uniform area has nothing to measure.
    expect(rules(xml, png(() => undefined))).toEqual([]);
  });
});
