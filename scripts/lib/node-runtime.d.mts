// Types of node-runtime.mjs for the TypeScript files that import it.
export declare const MINIMUM_NODE: string;
export declare const MINIMUM_NODE_MAJOR: number;
export declare const SUITE_NODE_MAJOR: number;
export declare const NEWEST_NODE_MAJOR: number;
export declare const DEFAULT_CACHE: string;
export declare function majorOf(version: string): number;
export declare function supportedNode(version: string): boolean;
export declare function suiteNodeMajor(env: Record<string, string | undefined>, version: string): number;
export declare function otherNodeMajors(env: Record<string, string | undefined>, suiteMajor: number): number[];
export declare function nodeVersion(nodePath: string): string;
export declare function nodeRuntime(
  major: number,
  options?: { cache?: string; npm?: string; log?: (line: string) => void; current?: string },
): string;
export declare function runtimeEnv(
  nodePath: string,
  env?: Record<string, string | undefined>,
): Record<string, string | undefined>;
