#!/usr/bin/env node
// Builds what production runs, as plain JavaScript:
//   apps/web/dist  the web app (Vite);
//   apps/api/dist  the API (esbuild): server.js with the workspace packages (@paineis/*) compiled in, and npm
//                  packages left as imports, loaded from node_modules (production dependencies only). The
//                  stand-ins, loaded by server.ts only in demo mode, get a chunk of their own, loaded on demand.
// The web app's files get a brotli (.br) and a gzip (.gz) copy each, compressed once at the strongest level, which
// the server sends to browsers that accept them (apps/api/src/plugins/web-app.ts).
// Then it writes a stamp of the sources' hash, so `--if-changed` (used by `npm start`) skips an up-to-date build.
//
//   node scripts/build.mjs               everything
//   node scripts/build.mjs --if-changed  everything, unless the sources are those of the last build
//   node scripts/build.mjs --api         the API only (no stamp)
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apiDir = path.join(root, 'apps', 'api');
const outdir = path.join(apiDir, 'dist');
const webDist = path.join(root, 'apps', 'web', 'dist');
const webIndex = path.join(webDist, 'index.html');
const stampFile = path.join(outdir, '.build-stamp');
const rel = (file) => path.relative(root, file);

/**
 * Files the server reads at run time next to its own modules (`new URL('./…', import.meta.url)`). Bundled, that
 * code runs from apps/api/dist, so each is copied there. Any other compiled module that uses import.meta.url
 * fails the build until it is listed here.
 */
const RUNTIME_FILES = {
  'apps/api/src/db/migrate.ts': { 'apps/api/src/db/migrations': 'migrations' },
  'packages/microsoft-stand-ins/src/embed-host.ts': {
    'packages/microsoft-stand-ins/src/embed-host-page.js': 'embed-host-page.js',
  },
  // Finds the repository root by walking up to apps/api/package.json, from src/config/ as from dist/.
  'apps/api/src/config/env.ts': {},
};

/** What the build reads: a change to any of these (tests aside) means a new build. */
const INPUTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'scripts/build.mjs',
  'apps/api/package.json',
  'apps/api/tsconfig.json',
  'apps/api/src',
  'apps/web',
  'packages',
];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', 'test-results', 'test']);
const isTest = (name) => /\.test\.[cm]?[jt]sx?$/.test(name);

function sourcesHash() {
  const files = [];
  const walk = (file) => {
    if (!statSync(file).isDirectory()) return void files.push(file);
    for (const entry of readdirSync(file, { withFileTypes: true })) {
      if (entry.isDirectory() ? SKIPPED_FOLDERS.has(entry.name) : isTest(entry.name)) continue;
      walk(path.join(file, entry.name));
    }
  };
  for (const input of INPUTS) if (existsSync(path.join(root, input))) walk(path.join(root, input));
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    hash.update(`${rel(file).split(path.sep).join('/')}\0`);
    hash.update(createHash('sha256').update(readFileSync(file)).digest());
  }
  return hash.digest('hex');
}

/** The package a name like `drizzle-orm/pglite` or `@fastify/static` belongs to. */
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The nearest package.json above a file. */
function owningPackage(file) {
  let dir = path.dirname(file);
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  const manifest = path.join(dir, 'package.json');
  return { manifest, json: JSON.parse(readFileSync(manifest, 'utf8')) };
}

/** Where Node finds an installed package from a folder (node_modules lookup), as a real path. */
function installed(fromDir, name) {
  for (let dir = fromDir; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name, 'package.json');
    if (existsSync(candidate)) return realpathSync(path.dirname(candidate));
    if (path.dirname(dir) === dir) return null;
  }
}

/**
 * npm packages stay imports, so the server loads them from node_modules. Each must be a production dependency of
 * the package whose code imports it, and the copy Node finds from apps/api/dist must be the one that code sees.
 */
const externalPackages = {
  name: 'paineis-external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@paineis/')) return undefined; // compiled in
      if (args.path.startsWith('node:') || builtinModules.includes(args.path)) {
        return { path: args.path, external: true };
      }
      const name = packageName(args.path);
      const owner = owningPackage(args.importer);
      if (!owner.json.dependencies?.[name]) {
        return {
          errors: [
            { text: `${name} é usado em tempo de execução, mas não está em "dependencies" de ${rel(owner.manifest)}` },
          ],
        };
      }
      const seen = installed(path.dirname(args.importer), name);
      if (!seen || installed(outdir, name) !== seen) {
        return {
          errors: [
            { text: `${name}: o servidor compilado (apps/api/dist) não acharia a cópia que ${rel(args.importer)} usa` },
          ],
        };
      }
      return { path: args.path, external: true };
    });
  },
};

async function buildApi() {
  const { build } = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { server: 'apps/api/src/server.ts' },
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    keepNames: true,
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
    logLevel: 'warning',
    plugins: [externalPackages],
  });
  const unlisted = [];
  for (const input of Object.keys(result.metafile.inputs)) {
    const source = readFileSync(path.join(root, input), 'utf8');
    const copies = RUNTIME_FILES[input];
    if (!copies) {
      if (/import\.meta\.(url|dirname|filename)/.test(source)) unlisted.push(input);
      continue;
    }
    for (const [from, to] of Object.entries(copies))
      cpSync(path.join(root, from), path.join(outdir, to), { recursive: true });
  }
  if (unlisted.length > 0) {
    throw new Error(
      `Estes módulos usam import.meta (arquivos lidos em tempo de execução?); liste-os em RUNTIME_FILES de scripts/build.mjs: ${unlisted.join(', ')}`,
    );
  }
}

function buildWeb() {
  const result = spawnSync('npm', ['run', 'build', '--silent', '--workspace', '@paineis/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error('o build da aplicação web (vite) falhou');
}

/** Text files worth compressing; index.html is read and sent by the server itself (and is tiny). */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map)$/;
/** Below this the server does not compress either (@fastify/compress's threshold in apps/api/src/app.ts). */
const MIN_COMPRESSED_BYTES = 1024;

/** Writes file.br and file.gz beside each compressible file of the built web app, when they are smaller. */
async function precompressWeb() {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (COMPRESSIBLE.test(entry.name) && statSync(file).size >= MIN_COMPRESSED_BYTES) files.push(file);
    }
  };
  walk(webDist);
  await Promise.all(
    files.map(async (file) => {
      const content = await readFile(file);
      const copies = {
        br: await brotli(content, {
          params: {
            [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
            [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
          },
        }),
        gz: await gzipped(content, { level: zlibConstants.Z_BEST_COMPRESSION }),
      };
      for (const [extension, copy] of Object.entries(copies)) {
        if (copy.length < content.length) await writeFile(`${file}.${extension}`, copy);
      }
    }),
  );
}

const args = new Set(process.argv.slice(2));
try {
  if (args.has('--api')) {
    await buildApi();
    console.log(`API compilada em ${rel(outdir)}`);
  } else {
    const hash = sourcesHash();
    const upToDate =
      existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash && existsSync(path.join(outdir, 'server.js'));
    if (args.has('--if-changed') && upToDate && existsSync(webIndex)) {
      console.log('Build em dia: nenhuma fonte mudou desde o último build.');
    } else {
      const started = Date.now();
      await buildApi();
      buildWeb();
      await precompressWeb();
      writeFileSync(stampFile, hash);
      console.log(`Build pronto em ${((Date.now() - started) / 1000).toFixed(1)} s: ${rel(outdir)} e apps/web/dist`);
    }
  }
} catch (error) {
  console.error(`Build falhou: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
