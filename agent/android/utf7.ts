/**
 * Text as modified UTF-7 (RFC 3501 §5.1.3): printable ASCII stays itself except `&` (`&-`); every other
 * run of characters becomes `&`, its UTF-16BE bytes in base64 with `,` for `/` and no padding, `-`.
 * The result is printable ASCII, which `input text` can type, and the Unicode input method of
 * io.appium.settings turns back into the text.
 */
export function encodeImapUtf7(text: string): string {
  let out = '';
  let run: number[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const bytes = Buffer.alloc(run.length * 2);
    run.forEach((unit, i) => bytes.writeUInt16BE(unit, i * 2));
    out += `&${bytes.toString('base64').replace(/=+$/, '').replace(/\//g, ',')}-`;
    run = [];
  };
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit <= 0x7e) {
      flush();
      out += unit === 0x26 ? '&-' : text[i];
    } else run.push(unit);
  }
  flush();
  return out;
}
