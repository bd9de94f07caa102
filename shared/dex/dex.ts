import { DexBytes, DexError, readMutf8 } from './bytes.js';

/**
 * One DEX file, read as far as listing tests needs: the header's tables (strings, types, prototypes,
 * method ids, class definitions), each class's methods from its `class_data_item`, and the annotations
 * on classes and methods (`annotations_directory_item` → `annotation_set_item` → `annotation_item`).
 * Format: https://source.android.com/docs/core/runtime/dex-format. Field tables and code are skipped.
 */

export const ACC_PUBLIC = 0x1;
export const ACC_PRIVATE = 0x2;
export const ACC_STATIC = 0x8;
export const ACC_INTERFACE = 0x200;
export const ACC_ABSTRACT = 0x400;

/** `annotation_item.visibility`. */
export type AnnotationVisibility = 'build' | 'runtime' | 'system';

export interface DexAnnotation {
  /** Type descriptor, `Lorg/junit/Test;`. */
  type: string;
  visibility: AnnotationVisibility;
}

export interface DexMethod {
  name: string;
  /** Type descriptors: `V`, `I`, `Ljava/lang/String;`. */
  returnType: string;
  parameters: string[];
  accessFlags: number;
  annotations: DexAnnotation[];
}

export interface DexClass {
  /** `Lcom/example/Foo$Bar;`. */
  descriptor: string;
  /** Null for `java.lang.Object` (no superclass). */
  superclass: string | null;
  accessFlags: number;
  annotations: DexAnnotation[];
  /** Direct methods (constructors, private, static) then virtual ones, as the file lists them. */
  methods: DexMethod[];
}

const NO_INDEX = 0xffffffff;
const HEADER_SIZE = 0x70;
const ENDIAN_CONSTANT = 0x12345678;
const VISIBILITIES: Record<number, AnnotationVisibility> = { 0: 'build', 1: 'runtime', 2: 'system' };

interface Table {
  size: number;
  offset: number;
}

/** Parses the classes of one DEX file; throws `DexError` for bytes that are not one. */
export function parseDex(buf: Buffer): DexClass[] {
  return new DexReader(new DexBytes(buf)).classes();
}

class DexReader {
  private readonly strings: Table;
  private readonly types: Table;
  private readonly protos: Table;
  private readonly methodIds: Table;
  private readonly classDefs: Table;
  private readonly stringCache = new Map<number, string>();

  constructor(private readonly b: DexBytes) {
    if (b.length < HEADER_SIZE) throw new DexError('truncated', `A DEX file is at least ${HEADER_SIZE} bytes; this one is ${b.length}`);
    const magic = b.buf.toString('latin1', 0, 8);
    if (!/^dex\n0[34]\d\0$/.test(magic)) throw new DexError('bad-magic', 'Not a DEX file (bad magic)');
    if (b.u4(40, 'endian_tag') !== ENDIAN_CONSTANT) throw new DexError('malformed', 'Unsupported DEX byte order');
    // The checksum is not verified (a listing reads no code); a file shorter than it says is refused.
    const fileSize = b.u4(32, 'file_size');
    if (fileSize > b.length) throw new DexError('truncated', `The DEX file says it is ${fileSize} bytes; ${b.length} are there`);
    const table = (at: number, itemSize: number, what: string): Table => {
      const t = { size: b.u4(at, `${what}_size`), offset: b.u4(at + 4, `${what}_off`) };
      if (t.size > 0) b.need(t.offset, t.size * itemSize, what);
      return t;
    };
    this.strings = table(56, 4, 'string_ids');
    this.types = table(64, 4, 'type_ids');
    this.protos = table(72, 12, 'proto_ids');
    this.methodIds = table(88, 8, 'method_ids');
    this.classDefs = table(96, 32, 'class_defs');
  }

  private index(table: Table, i: number, what: string): number {
    if (i >= table.size) throw new DexError('out-of-range', `${what} index ${i} is out of range (${table.size} entries)`);
    return i;
  }

  string(i: number): string {
    const cached = this.stringCache.get(i);
    if (cached !== undefined) return cached;
    const dataOff = this.b.u4(this.strings.offset + this.index(this.strings, i, 'string') * 4, 'string_id_item');
    const { next } = this.b.uleb128(dataOff, 'string_data_item size');
    const s = readMutf8(this.b, next, 'string_data_item');
    this.stringCache.set(i, s);
    return s;
  }

  type(i: number): string {
    return this.string(this.b.u4(this.types.offset + this.index(this.types, i, 'type') * 4, 'type_id_item'));
  }

  private typeList(offset: number): string[] {
    if (offset === 0) return [];
    const size = this.b.u4(offset, 'type_list size');
    this.b.need(offset + 4, size * 2, 'type_list');
    return Array.from({ length: size }, (_, k) => this.type(this.b.u2(offset + 4 + k * 2, 'type_item')));
  }

  private method(methodIdx: number, accessFlags: number, annotations: DexAnnotation[]): DexMethod {
    const at = this.methodIds.offset + this.index(this.methodIds, methodIdx, 'method') * 8;
    const protoIdx = this.b.u2(at + 2, 'method_id_item proto_idx');
    const name = this.string(this.b.u4(at + 4, 'method_id_item name_idx'));
    const proto = this.protos.offset + this.index(this.protos, protoIdx, 'proto') * 12;
    const returnType = this.type(this.b.u4(proto + 4, 'proto_id_item return_type_idx'));
    return { name, returnType, parameters: this.typeList(this.b.u4(proto + 8, 'proto_id_item parameters_off')), accessFlags, annotations };
  }

  private annotationSet(offset: number): DexAnnotation[] {
    if (offset === 0) return [];
    const size = this.b.u4(offset, 'annotation_set_item size');
    this.b.need(offset + 4, size * 4, 'annotation_set_item');
    const out: DexAnnotation[] = [];
    for (let k = 0; k < size; k++) {
      const item = this.b.u4(offset + 4 + k * 4, 'annotation_off_item');
      const visibility = VISIBILITIES[this.b.u1(item, 'annotation_item visibility')];
      if (!visibility) throw new DexError('malformed', `annotation_item at offset ${item} has an unknown visibility`);
      out.push({ type: this.type(this.b.uleb128(item + 1, 'encoded_annotation type_idx').value), visibility });
    }
    return out;
  }

  /** The class's own annotations and each annotated method's, by method index. */
  private annotationsDirectory(offset: number): { classAnnotations: DexAnnotation[]; byMethod: Map<number, DexAnnotation[]> } {
    const byMethod = new Map<number, DexAnnotation[]>();
    if (offset === 0) return { classAnnotations: [], byMethod };
    const classAnnotations = this.annotationSet(this.b.u4(offset, 'class_annotations_off'));
    const fields = this.b.u4(offset + 4, 'fields_size');
    const methods = this.b.u4(offset + 8, 'annotated_methods_size');
    const start = offset + 16 + fields * 8;
    this.b.need(start, methods * 8, 'method_annotation');
    for (let k = 0; k < methods; k++) {
      const at = start + k * 8;
      byMethod.set(this.b.u4(at, 'method_annotation method_idx'), this.annotationSet(this.b.u4(at + 4, 'method_annotation annotations_off')));
    }
    return { classAnnotations, byMethod };
  }

  private classData(offset: number, byMethod: Map<number, DexAnnotation[]>): DexMethod[] {
    if (offset === 0) return [];
    let p = offset;
    const next = (what: string) => {
      const r = this.b.uleb128(p, what);
      p = r.next;
      return r.value;
    };
    const staticFields = next('static_fields_size');
    const instanceFields = next('instance_fields_size');
    const direct = next('direct_methods_size');
    const virtual = next('virtual_methods_size');
    for (let k = 0; k < staticFields + instanceFields; k++) {
      next('encoded_field field_idx_diff');
      next('encoded_field access_flags');
    }
    const methods: DexMethod[] = [];
    for (const count of [direct, virtual]) {
      let methodIdx = 0;
      for (let k = 0; k < count; k++) {
        methodIdx += next('encoded_method method_idx_diff');
        const accessFlags = next('encoded_method access_flags');
        next('encoded_method code_off');
        methods.push(this.method(methodIdx, accessFlags, byMethod.get(methodIdx) ?? []));
      }
    }
    return methods;
  }

  classes(): DexClass[] {
    const out: DexClass[] = [];
    for (let i = 0; i < this.classDefs.size; i++) {
      const at = this.classDefs.offset + i * 32;
      const superIdx = this.b.u4(at + 8, 'class_def_item superclass_idx');
      const { classAnnotations, byMethod } = this.annotationsDirectory(this.b.u4(at + 20, 'class_def_item annotations_off'));
      out.push({
        descriptor: this.type(this.b.u4(at, 'class_def_item class_idx')),
        superclass: superIdx === NO_INDEX ? null : this.type(superIdx),
        accessFlags: this.b.u4(at + 4, 'class_def_item access_flags'),
        annotations: classAnnotations,
        methods: this.classData(this.b.u4(at + 24, 'class_def_item class_data_off'), byMethod),
      });
    }
    return out;
  }
}
