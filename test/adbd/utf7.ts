/**
 * Decodes modified UTF-7 (RFC 3501 §5.1.3, as IMAP names mailboxes): `&-` is `&`, `&<base64>-` is
 * UTF-16BE in base64 with `,` for `/`; everything else is itself. This is what io.appium.settings'
 * Unicode input method turns back into text.
 */
export function decodeImapUtf7(text: string): string {
  return text.replace(/&([A-Za-z0-9+,]*)-/g, (_, encoded: string) => {
    if (encoded === '') return '&';
    const bytes = Buffer.from(encoded.replace(/,/g, '/'), 'base64');
    let out = '';
    for (let i = 0; i + 1 < bytes.length; i += 2) out += String.fromCharCode(bytes.readUInt16BE(i));
    return out;
  });
}
