// Validate every valid case of a corpus with the Khronos glTF-Validator (core glTF only: the
// physics extensions are unknown to it and only reported as information). Exits non-zero when
// any valid case has a validator error.
//
//   npm ci && node check-gltf-validator.mjs v1
import { readFileSync } from "node:fs";
import path from "node:path";
import validator from "gltf-validator";

const root = path.resolve(process.argv[2] ?? "v1");
const manifest = JSON.parse(readFileSync(path.join(root, "manifest.json"), "utf8"));
const cases = manifest.cases.filter((c) => c.valid);
let failed = 0;
let warnings = 0;
for (const c of cases) {
  const file = path.join(root, c.file);
  const dir = path.dirname(file);
  const report = await validator.validateBytes(new Uint8Array(readFileSync(file)), {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        try {
          resolve(new Uint8Array(readFileSync(path.join(dir, decodeURIComponent(uri)))));
        } catch (e) {
          reject(e.toString());
        }
      }),
  });
  warnings += report.issues.numWarnings;
  if (report.issues.numErrors > 0) {
    failed += 1;
    const errors = report.issues.messages.filter((m) => m.severity === 0);
    console.error(`${c.id}: ${errors.map((m) => `${m.code} at ${m.pointer}: ${m.message}`).join("; ")}`);
  }
}
console.log(`${cases.length - failed} passed, ${failed} failed`);
console.error(`glTF-Validator: ${cases.length} valid cases, ${failed} with errors, ${warnings} warnings in all`);
process.exit(failed > 0 ? 1 : 0);
