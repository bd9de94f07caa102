// Types of scripts/check-imports.mjs for the TypeScript code that imports it (its spec).
export interface LayerRule {
  dir?: string;
  folders: string[];
  files?: string[];
  packages?: string[];
  builtins?: false;
  extensions?: string[];
}
export const LAYERS: Record<string, LayerRule>;
export const FEATURE_ROOT: string;
export function aliasesOf(root: string): [prefix: string, folder: string][];
export function resolveImport(from: string, spec: string, options: { root: string; aliases?: [string, string][] }): string | null;
export function specifiersOf(text: string): string[];
export function checkImports(
  root: string,
  layers?: Record<string, LayerRule>,
): { files: string[]; circles: string[][]; against: string[]; unresolved: string[]; features: string[]; faces: string[] };
