// Types of postgres.mjs for the TypeScript files that import it (vitest.config.ts, bench).
export declare function postgresConnectionError(url: string, timeoutMs?: number): Promise<string | null>;
export declare function postgresReachable(url: string, timeoutMs?: number): Promise<boolean>;
export declare function withoutPassword(url: string): string;
export declare function postgresProjectWanted(options: {
  env: Record<string, string | undefined>;
  url: string;
  probe?: (url: string) => Promise<string | null>;
}): Promise<boolean>;
