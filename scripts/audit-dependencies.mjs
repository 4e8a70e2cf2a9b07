#!/usr/bin/env node
// `npm audit` of the production dependencies (what `npm ci --omit=dev` installs): fails on any high or
// critical advisory, naming each package. Lower severities are listed and pass.
//
// The audit asks the registry's audit service. A registry that offers none (a mirror that only serves
// packages answers its audit endpoints with an error) cannot say anything: then this says so plainly, on a
// line of its own, and passes, since nothing was found either way; AUDIT_REQUIRED=true makes that a failure.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FAILING = ['high', 'critical'];

const result = spawnSync('npm', ['audit', '--omit=dev', '--json'], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
  timeout: 120_000,
});

let report = null;
try {
  report = JSON.parse(result.stdout);
} catch {
  // no JSON: npm itself failed
}

const counts = report?.metadata?.vulnerabilities;
if (!counts) {
  const why =
    report?.error?.summary ||
    report?.message ||
    result.error?.message ||
    result.stderr
      ?.split('\n')
      .filter((line) => line.startsWith('npm error') || line.includes('audit'))
      .join(' ')
      .trim() ||
    `npm audit saiu com ${result.status}`;
  console.log(`⚠ Auditoria NÃO realizada: o registro não respondeu à auditoria (${why}).`);
  console.log('  Nenhuma vulnerabilidade foi verificada nesta execução.');
  process.exit(process.env.AUDIT_REQUIRED === 'true' ? 1 : 0);
}

const summary = ['critical', 'high', 'moderate', 'low', 'info'].map((level) => `${level}: ${counts[level] ?? 0}`);
console.log(`npm audit --omit=dev: ${summary.join(', ')} (${report.metadata.dependencies?.prod ?? '?'} pacotes)`);

const findings = Object.values(report.vulnerabilities ?? {});
for (const finding of findings) {
  const via = (finding.via ?? [])
    .map((v) => (typeof v === 'string' ? `via ${v}` : `${v.title ?? ''} ${v.url ?? ''}`.trim()))
    .join('; ');
  const fix =
    finding.fixAvailable === true
      ? 'correção: npm audit fix'
      : finding.fixAvailable
        ? `correção: ${finding.fixAvailable.name}@${finding.fixAvailable.version}`
        : 'sem correção publicada';
  console.log(`  ${finding.severity.padEnd(8)} ${finding.name}@${finding.range} — ${via} (${fix})`);
}

const failing = findings.filter((f) => FAILING.includes(f.severity));
if (failing.length > 0) {
  console.log(`✗ ${failing.length} pacote(s) com vulnerabilidade alta ou crítica em produção.`);
  process.exit(1);
}
console.log('Nenhuma vulnerabilidade alta ou crítica nas dependências de produção.');
