// The Khronos glTF-Validator over our files (core glTF only: the physics extensions are unknown
// to it and only reported as information). Two modes:
//
//   node check-gltf-validator.mjs v1            every valid case of a corpus (its manifest.json)
//   node check-gltf-validator.mjs --core DIR    DIR/valid/* and DIR/invalid/* (the hand-written
//                                               core-glTF files of reference/tests/core-gltf)
//
// A corpus case fails when the validator reports an error, but for the validator's errors that
// are the very defect the case expects as a warning: glTF 2.0 says skin weights SHOULD sum to 1
// (a warning, KHR_SKIN_WEIGHTS_NOT_NORMALIZED) where the validator reports an error. In --core
// mode a file under valid/ must have no error and one under invalid/ at least one: the validator
// and the reference (reference/tests/core_gltf.rs) must agree, file by file.
//
// An absolute URI is not fetched here (CI has no network and reads only the files beside the
// document): the validator warns (NON_RELATIVE_URI) and then reports the failed fetch as
// IO_ERROR at the same pointer; that IO_ERROR says only that this script did not fetch it, and
// is not counted.
//
//   npm ci && node check-gltf-validator.mjs v1
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import validator from "gltf-validator";

/// The validator's report of the file at `file`, its relative URIs read from its folder.
async function validate(file) {
  const dir = path.dirname(file);
  return validator.validateBytes(new Uint8Array(readFileSync(file)), {
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
}

/// The report's errors, without the IO_ERROR of an absolute URI this script does not fetch.
function errorsOf(report) {
  const notFetched = new Set(
    report.issues.messages.filter((m) => m.code === "NON_RELATIVE_URI").map((m) => m.pointer),
  );
  return report.issues.messages.filter(
    (m) => m.severity === 0 && !(m.code === "IO_ERROR" && notFetched.has(m.pointer)),
  );
}

const show = (errors) => errors.map((m) => `${m.code} at ${m.pointer}: ${m.message}`).join("; ");

async function corpus(root) {
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
    const report = await validate(path.join(root, c.file));
    warnings += report.issues.numWarnings;
    const errors = errorsOf(report).filter((m) => !expected(c, m));
    if (errors.length > 0) {
      failed += 1;
      console.error(`${c.id}: ${show(errors)}`);
    }
  }
  console.log(`${cases.length - failed} passed, ${failed} failed`);
  console.error(`glTF-Validator: ${cases.length} valid cases, ${failed} with errors, ${warnings} warnings in all`);
  return failed === 0;
}

async function core(root) {
  let agreed = 0;
  let disagreed = 0;
  for (const kind of ["valid", "invalid"]) {
    const dir = path.join(root, kind);
    const files = readdirSync(dir).filter((f) => /\.(gltf|glb)$/.test(f)).sort();
    for (const f of files) {
      const errors = errorsOf(await validate(path.join(dir, f)));
      const ok = kind === "valid" ? errors.length === 0 : errors.length > 0;
      if (ok) {
        agreed += 1;
        console.log(`ok ${kind}/${f}${errors.length ? `: ${errors.map((m) => m.code).join(", ")}` : ""}`);
      } else {
        disagreed += 1;
        console.error(
          `DISAGREES ${kind}/${f}: ${kind === "valid" ? show(errors) : "the validator reports no error"}`,
        );
      }
    }
  }
  console.log(`glTF-Validator agrees on ${agreed} of ${agreed + disagreed} core-glTF files`);
  return disagreed === 0 && agreed > 0;
}

const ok =
  process.argv[2] === "--core"
    ? await core(path.resolve(process.argv[3] ?? "../reference/tests/core-gltf"))
    : await corpus(path.resolve(process.argv[2] ?? "v1"));
process.exit(ok ? 0 : 1);
