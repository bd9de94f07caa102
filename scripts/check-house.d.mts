// Types of scripts/check-house.mjs for the TypeScript code that imports it (its spec).
export const FUNCTION_MAX_LINES: number;
export const FILE_MAX_LINES: number;
export const ROUTES_MAX_LINES: number;
export const LONG_MARKER: string;
export interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}
export function featureFolders(root: string): { module: string; feature: string; dir: string }[];
export function shapeOffences(root: string): string[];
export function longFunctions(root: string, files: string[]): LongFunction[];
export function longFiles(root: string, files: string[]): string[];
export function jsonTextComparisons(root: string, files: string[]): string[];
export function routesRunningCommands(root: string, files: string[]): string[];
export function contextBuilders(root: string, files: string[]): string[];
/** Table name → the projection (folder under projections/) that owns it. */
export function projectionTables(root: string): Map<string, string>;
export function readModelCrossings(root: string, files: string[]): string[];
export function handWrittenDeciders(root: string, files: string[]): string[];
/** Read models (`projections/<name>/` with a projection.ts) applying events without applyByType, or with no spec beside them. */
export function projectionsOffTheRule(root: string): string[];
export function checkHouse(root: string): { shape: string[]; long: LongFunction[]; longFiles: string[]; jsonTexts: string[]; routesWriting: string[]; contextBuilders: string[]; readModelSql: string[]; deciders: string[]; projections: string[]; files: number; features: number };
