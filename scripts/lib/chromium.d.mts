// Types of chromium.mjs for the TypeScript projects that import it (e2e, the stand-ins' tests, bench).
export declare function chromiumPath(): string;
export declare function chromiumArgs(extra?: readonly string[]): string[];
export declare function chromiumLaunchOptions(extraArgs?: readonly string[]): {
  executablePath: string;
  args: string[];
};
