// Validate every .gltf/.glb file under a folder with the Khronos glTF-Validator, one file after
// the other in this one Node process (core glTF only: the validator does not know the physics
// extensions). External buffers are read from disk, as physics-cts does.
//
// Usage: node validate-folder.mjs FOLDER [RUNS]
// Prints one JSON line: {"files", "bytes", "runs_seconds": [...], "runs_cpu_seconds": [...],
// "errors", "warnings", "infos"} where runs_seconds times each full pass over the folder (start-up
// excluded), runs_cpu_seconds is the process's CPU time (user + system) during each pass, and the
// counts are those of the last pass.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const validator = require("gltf-validator");

function collect(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collect(path, out);
    else if (/\.(gltf|glb)$/i.test(name)) out.push(path);
  }
  return out;
}

const folder = process.argv[2];
const runs = Number(process.argv[3] ?? 1);
if (!folder || !(runs >= 1)) {
  console.error("usage: node validate-folder.mjs FOLDER [RUNS]");
  process.exit(2);
}
const files = collect(resolve(folder), []);
let bytes = 0;
for (const f of files) bytes += statSync(f).size;

const runsSeconds = [];
const runsCpuSeconds = [];
let counts = { errors: 0, warnings: 0, infos: 0 };
for (let run = 0; run < runs; run++) {
  counts = { errors: 0, warnings: 0, infos: 0 };
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (const file of files) {
    const data = new Uint8Array(readFileSync(file));
    const report = await validator.validateBytes(data, {
      uri: file,
      maxIssues: 0,
      externalResourceFunction: (uri) =>
        new Promise((ok, fail) => {
          try {
            ok(new Uint8Array(readFileSync(resolve(dirname(file), decodeURIComponent(uri)))));
          } catch (e) {
            fail(e.toString());
          }
        }),
    });
    counts.errors += report.issues.numErrors;
    counts.warnings += report.issues.numWarnings;
    counts.infos += report.issues.numInfos;
  }
  runsSeconds.push((performance.now() - start) / 1000);
  const used = process.cpuUsage(cpu);
  runsCpuSeconds.push((used.user + used.system) / 1e6);
}
console.log(JSON.stringify({ files: files.length, bytes, runs_seconds: runsSeconds, runs_cpu_seconds: runsCpuSeconds, ...counts }));
