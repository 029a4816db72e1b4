// Types of module-faces.js for the server's tests (the rule itself is plain JS, as ESLint loads it).
export type Place = { root: string; area: string; module: string | null; rest: string[] };
export type FaceProblem = {
  messageId: 'privateFile' | 'lowerLayer';
  data: Record<string, string>;
};
export function placeOf(file: string): Place | null;
export function isTestFile(file: string): boolean;
export function faceProblem(from: string, specifier: string): FaceProblem | null;
export const moduleFaces: unknown;
