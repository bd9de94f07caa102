import { ACC_ABSTRACT, ACC_INTERFACE, ACC_PRIVATE, ACC_PUBLIC, ACC_STATIC, type DexAnnotation, type DexClass, type DexMethod } from './dex.js';

/** One test method as an instrumentation runner would run it. */
export interface TestMethod {
  /** Java name of the class the test runs in: `com.example.FooTest`, `com.example.Outer$Inner`. */
  className: string;
  methodName: string;
  /** Runtime annotations of the class and then of the method, as Java names, without repeats. */
  annotations: string[];
  /** `@org.junit.Ignore` on the method or on the class. */
  ignored: boolean;
}

const JUNIT4_TEST = 'Lorg/junit/Test;';
const JUNIT4_IGNORE = 'Lorg/junit/Ignore;';
const JUNIT3_TEST_CASE = 'Ljunit/framework/TestCase;';

/** `Lcom/example/Outer$Inner;` → `com.example.Outer$Inner`; other descriptors (arrays, primitives) as they are. */
export const javaName = (descriptor: string): string => (descriptor.startsWith('L') && descriptor.endsWith(';') ? descriptor.slice(1, -1).replace(/\//g, '.') : descriptor);

const runtime = (annotations: readonly DexAnnotation[]): string[] => annotations.filter((a) => a.visibility === 'runtime').map((a) => a.type);
const has = (annotations: readonly DexAnnotation[], type: string) => annotations.some((a) => a.type === type && a.visibility === 'runtime');
const signature = (m: DexMethod) => `${m.name}(${m.parameters.join('')})`;

/**
 * The tests of an APK's classes (every DEX file's, together), as AndroidJUnitRunner finds them:
 *
 * - A class is skipped when it is abstract or an interface; it is listed wherever it is nested (`Outer$Inner`).
 * - JUnit 3: a class whose superclass chain, through the classes of the APK, reaches
 *   `junit.framework.TestCase` runs every public, non-static, argument-less `void test*()` method it
 *   declares or inherits from a superclass in the APK (JUnit 3's `TestSuite` walks the same chain).
 *   Such a class is JUnit 3 even if it also carries `@Test` (the runner checks JUnit 3 first).
 * - JUnit 4: every method with `@org.junit.Test` that the class declares or inherits from superclasses
 *   in the APK. An override without `@Test` of an annotated method still runs, as JUnit 4's `TestClass`
 *   collects annotated methods along the chain; that method's annotations are those of the declaration
 *   carrying `@Test`, the class's are those of the class run (the concrete one).
 * - `ignored`: `@org.junit.Ignore` on the method or on the class run (not inherited, as in JUnit).
 * - `annotations`: runtime-visible ones only (what a runner's annotation filters see); the system
 *   annotations the compiler adds (`dalvik.annotation.*`) are not.
 *
 * Ordered by class name, then method name.
 */
export function findTests(classes: readonly DexClass[]): TestMethod[] {
  const byDescriptor = new Map<string, DexClass>();
  for (const c of classes) if (!byDescriptor.has(c.descriptor)) byDescriptor.set(c.descriptor, c);
  /** The class and its superclasses found in the APK, nearest first (a cycle in bad bytes stops the walk). */
  const chainOf = (c: DexClass): { chain: DexClass[]; reachesTestCase: boolean } => {
    const chain = [c];
    const seen = new Set([c.descriptor]);
    let next = c.superclass;
    while (next && !seen.has(next)) {
      if (next === JUNIT3_TEST_CASE) return { chain, reachesTestCase: true };
      const parent = byDescriptor.get(next);
      if (!parent) break;
      chain.push(parent);
      seen.add(next);
      next = parent.superclass;
    }
    return { chain, reachesTestCase: false };
  };

  const tests: TestMethod[] = [];
  for (const c of byDescriptor.values()) {
    if (c.accessFlags & (ACC_ABSTRACT | ACC_INTERFACE)) continue;
    const { chain, reachesTestCase } = chainOf(c);
    const classAnnotations = runtime(c.annotations);
    const classIgnored = has(c.annotations, JUNIT4_IGNORE);
    const seen = new Set<string>();
    for (const declaring of chain) {
      for (const m of declaring.methods) {
        const isTest = reachesTestCase ? isJunit3Test(m) : has(m.annotations, JUNIT4_TEST);
        // JUnit 4 looks at every declaration down the chain; JUnit 3 runs the nearest one only.
        if (reachesTestCase && seen.has(signature(m))) continue;
        if (!reachesTestCase && isTest && seen.has(signature(m))) continue;
        if (reachesTestCase || isTest) seen.add(signature(m));
        if (!isTest) continue;
        tests.push({
          className: javaName(c.descriptor),
          methodName: m.name,
          annotations: [...new Set([...classAnnotations, ...runtime(m.annotations)])].map(javaName),
          ignored: classIgnored || has(m.annotations, JUNIT4_IGNORE),
        });
      }
    }
  }
  return tests.sort((a, b) => (a.className === b.className ? cmp(a.methodName, b.methodName) : cmp(a.className, b.className)));
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function isJunit3Test(m: DexMethod): boolean {
  return m.name.startsWith('test') && m.parameters.length === 0 && m.returnType === 'V' && (m.accessFlags & ACC_PUBLIC) !== 0 && (m.accessFlags & (ACC_STATIC | ACC_PRIVATE)) === 0;
}
