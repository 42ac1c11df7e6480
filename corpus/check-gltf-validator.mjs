// Validate every valid case of a corpus with the Khronos glTF-Validator (core glTF only: the
// physics extensions are unknown to it and only reported as information). Exits non-zero when
// any valid case has a validator error, but for the validator's errors that are the very defect
// the case expects as a warning: glTF 2.0 says skin weights SHOULD sum to 1 (a warning,
// KHR_SKIN_WEIGHTS_NOT_NORMALIZED) where the validator reports an error.
//
//   npm ci && node check-gltf-validator.mjs v1
import { readFileSync } from "node:fs";
import path from "node:path";
import validator from "gltf-validator";

const root = path.resolve(process.argv[2] ?? "v1");
const manifest = JSON.parse(readFileSync(path.join(root, "manifest.json"), "utf8"));
const cases = manifest.cases.filter((c) => c.valid);
// Our warning code -> the validator error codes that report the same defect.
const SAME_DEFECT = {
  KHR_SKIN_WEIGHTS_NOT_NORMALIZED: ["ACCESSOR_WEIGHTS_NON_NORMALIZED"],
};
const expected = (c, m) =>
  (c.expected_codes ?? []).some((code) => (SAME_DEFECT[code] ?? []).includes(m.code));
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
  const errors = report.issues.messages.filter((m) => m.severity === 0 && !expected(c, m));
  if (errors.length > 0) {
    failed += 1;
    console.error(`${c.id}: ${errors.map((m) => `${m.code} at ${m.pointer}: ${m.message}`).join("; ")}`);
  }
}
console.log(`${cases.length - failed} passed, ${failed} failed`);
console.error(`glTF-Validator: ${cases.length} valid cases, ${failed} with errors, ${warnings} warnings in all`);
process.exit(failed > 0 ? 1 : 0);
