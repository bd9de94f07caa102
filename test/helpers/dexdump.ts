import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DEXDUMP } from './test-apk.js';

const run = promisify(execFile);

/** A class as `dexdump -a` prints it: descriptor, flags, superclass, methods and their runtime annotations. */
export interface DumpedClass {
  descriptor: string;
  accessFlags: number;
  superclass: string | null;
  annotations: string[];
  methods: { name: string; type: string; accessFlags: number; annotations: string[] }[];
}

/**
 * The classes of a DEX file read from Debian's `dexdump -a` (not from our reader). dexdump names an
 * annotated method by its name only, so overloads share the annotations of their name.
 */
export async function dexdumpClasses(path: string): Promise<DumpedClass[]> {
  const { stdout } = await run(DEXDUMP, ['-a', path], { maxBuffer: 256 * 1024 * 1024 });
  const classes: DumpedClass[] = [];
  let classAnnotations: string[] = [];
  let methodAnnotations = new Map<string, string[]>();
  let collecting: string[] | null = null;
  let current: DumpedClass | null = null;
  let method: DumpedClass['methods'][number] | null = null;
  for (const line of stdout.split('\n')) {
    let m: RegExpExecArray | null;
    if (/^Class #\d+ annotations:/.test(line)) {
      classAnnotations = [];
      methodAnnotations = new Map();
      collecting = null;
    } else if (line === 'Annotations on class') collecting = classAnnotations;
    else if ((m = /^Annotations on method #\d+ '([^']*)'$/.exec(line))) {
      collecting = methodAnnotations.get(m[1]!) ?? [];
      methodAnnotations.set(m[1]!, collecting);
    } else if (line.startsWith('Annotations on')) collecting = null;
    else if ((m = /^ {2}VISIBILITY_RUNTIME (L[^;]*;)/.exec(line)) && collecting) collecting.push(m[1]!);
    else if (/^Class #\d+ {2,}-$/.test(line)) {
      collecting = null;
      current = { descriptor: '', accessFlags: 0, superclass: null, annotations: classAnnotations, methods: [] };
      classes.push(current);
      classAnnotations = [];
    } else if (current && (m = /^ {2}Class descriptor {2}: '([^']*)'/.exec(line))) current.descriptor = m[1]!;
    else if (current && (m = /^ {2}Access flags {6}: 0x([0-9a-f]+)/.exec(line))) current.accessFlags = parseInt(m[1]!, 16);
    else if (current && (m = /^ {2}Superclass {8}: '([^']*)'/.exec(line))) current.superclass = m[1]!;
    else if (current && (m = /^ {6}name {10}: '([^']*)'/.exec(line))) {
      method = { name: m[1]!, type: '', accessFlags: 0, annotations: methodAnnotations.get(m[1]!) ?? [] };
      current.methods.push(method);
    } else if (method && (m = /^ {6}type {10}: '([^']*)'/.exec(line))) method.type = m[1]!;
    else if (method && (m = /^ {6}access {8}: 0x([0-9a-f]+)/.exec(line))) method.accessFlags = parseInt(m[1]!, 16);
    else if (/^ {2}(Static|Instance) fields/.test(line)) method = null;
  }
  return classes;
}

/**
 * The tests of an APK's classes by the rules `shared/dex/tests.ts` documents, worked out here again
 * from dexdump's view of them, as `Class#method` lines with the ignored mark and the annotations.
 */
export function testsOfDump(classes: readonly DumpedClass[]): string[] {
  const by = new Map(classes.map((c) => [c.descriptor, c]));
  const java = (d: string) => d.slice(1, -1).replace(/\//g, '.');
  const out: string[] = [];
  for (const c of classes) {
    if (c.accessFlags & 0x600) continue;
    const chain: DumpedClass[] = [];
    let junit3 = false;
    for (let k: DumpedClass | undefined = c; k && !chain.includes(k); k = by.get(k.superclass ?? '')) {
      chain.push(k);
      if (k.superclass === 'Ljunit/framework/TestCase;') junit3 = true;
    }
    const taken = new Set<string>();
    for (const k of chain) {
      for (const m of k.methods) {
        const key = m.name + m.type.slice(0, m.type.indexOf(')') + 1);
        const test = junit3 ? m.name.startsWith('test') && m.type === '()V' && (m.accessFlags & 1) === 1 && (m.accessFlags & 0xa) === 0 : m.annotations.includes('Lorg/junit/Test;');
        if (taken.has(key) && (junit3 || test)) continue;
        if (junit3 || test) taken.add(key);
        if (!test) continue;
        const annotations = [...new Set([...c.annotations, ...m.annotations])].map(java).sort();
        const ignored = c.annotations.includes('Lorg/junit/Ignore;') || m.annotations.includes('Lorg/junit/Ignore;');
        out.push(`${java(c.descriptor)}#${m.name}${ignored ? ' ignored' : ''} [${annotations.join(' ')}]`);
      }
    }
  }
  return out.sort();
}
