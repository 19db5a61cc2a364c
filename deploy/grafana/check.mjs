// Type-checks each dashboard here against Grafana's own Dashboard type: the classic JSON
// model, as @grafana/schema (pinned in package.json) publishes it from Grafana's schemas.
//
//   cd deploy/grafana && npm ci && node check.mjs
//
// Each dashboard becomes an object literal typed as that Dashboard, so an unknown key, a
// missing required one or a value of the wrong type fails. Grafana's string enums
// (ThresholdsMode, FieldColorModeId, ...) are compared by their values, which is what a
// JSON file holds. Exit status 1 on any error.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const dashboards = readdirSync(here).filter((name) => name.endsWith('.json') && !name.startsWith('package'));

const prelude = `import type { Dashboard } from '@grafana/schema';
// A string enum as the strings it stands for; anything else as it is, recursively.
type Json<T> = 0 extends 1 & T ? any
  : T extends string ? \`\${T}\`
  : T extends Array<infer U> ? Array<Json<U>>
  : T extends object ? { [K in keyof T]: Json<T[K]> }
  : T;
`;

const sources = new Map(
  dashboards.map((name) => [
    join(here, `${name}.check.ts`),
    `${prelude}export const dashboard: Json<Dashboard> = ${readFileSync(join(here, name), 'utf8')};\n`,
  ]),
);
const options = { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, skipLibCheck: true, types: [] };
const host = ts.createCompilerHost(options);
const { getSourceFile, fileExists, readFile } = host;
host.getSourceFile = (name, version, ...rest) =>
  sources.has(name) ? ts.createSourceFile(name, sources.get(name), version) : getSourceFile.call(host, name, version, ...rest);
host.fileExists = (name) => sources.has(name) || fileExists.call(host, name);
host.readFile = (name) => sources.get(name) ?? readFile.call(host, name);

const program = ts.createProgram([...sources.keys()], options, host);
const errors = ts.getPreEmitDiagnostics(program);
for (const error of errors) {
  const where = error.file ? `${error.file.fileName.replace(/\.check\.ts$/, '')}:${error.file.getLineAndCharacterOfPosition(error.start).line + 1}` : '';
  console.error(`${where} ${ts.flattenDiagnosticMessageText(error.messageText, '\n')}`);
}
const version = JSON.parse(readFileSync(join(here, 'node_modules/@grafana/schema/package.json'), 'utf8')).version;
console.log(`${dashboards.length} dashboard(s) against @grafana/schema ${version}: ${errors.length} error(s)`);
process.exit(errors.length ? 1 : 0);
