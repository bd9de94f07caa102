// The part of `sax` (no published types at this version) that the JUnit import uses.
declare module 'sax' {
  export interface Tag {
    name: string;
    attributes: Record<string, string>;
    isSelfClosing: boolean;
  }
  export interface SAXParser {
    line: number;
    column: number;
    onerror: (error: Error) => void;
    onopentag: (tag: Tag) => void;
    onclosetag: (name: string) => void;
    ontext: (text: string) => void;
    oncdata: (cdata: string) => void;
    write(chunk: string): SAXParser;
    close(): SAXParser;
  }
  export function parser(strict: boolean, options?: { position?: boolean; trim?: boolean; normalize?: boolean; lowercase?: boolean; xmlns?: boolean }): SAXParser;
  const sax: { parser: typeof parser };
  export default sax;
}
