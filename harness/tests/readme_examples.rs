//! Every command example of the README runs, and does what its comment says. Each example line
//! (`physics-cts ...` in a `sh` block, and the two first commands) must have an entry in
//! [`EXAMPLES`]: a new example without one fails this test. They run in a scratch folder that
//! holds a small copy of `corpus/v2` at `corpus/v2` (so the examples' paths work as written),
//! with the debug binary; what needs the whole corpus (the filters' counts, the regenerated
//! corpus's bytes) is checked against the real one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use corpus_subset::copy_cases;
use physics_cts::case::Corpus;
use serde_json::Value;

mod corpus_subset;

const BIN: &str = env!("CARGO_BIN_EXE_physics-cts");

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The example lines of the README: each `sh` block's lines that start with `physics-cts`
/// (comment cut off), and the first block's two commands.
fn examples(readme: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut in_sh = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let (command, comment) = match line.find(" # ") {
            Some(i) => (line[..i].trim(), line[i + 3..].trim()),
            None => (line.trim(), ""),
        };
        if command.starts_with("physics-cts ") || command.starts_with("cargo ") {
            out.push((command.to_owned(), comment.to_owned()));
        }
    }
    out
}

/// How an example is checked.
#[derive(Clone, Copy, Debug)]
enum Check {
    /// Run it in the scratch folder; the exit code is one of these, then the named check.
    Run(&'static [i32], Then),
    /// Not run: the comment's claim is checked otherwise (said in the reason).
    Otherwise(&'static str),
}

/// What is checked after an example ran.
#[derive(Clone, Copy, Debug)]
enum Then {
    Nothing,
    /// The reports are in this folder of the scratch folder.
    ReportsIn(&'static str),
    /// `--filter` selects the number of cases the comment gives, of the real corpus, every id
    /// containing the text.
    Filter(&'static str, &'static str),
    /// The diff printed its sections.
    Diff,
    /// The generated corpus equals the committed `corpus/v2` byte for byte.
    Regenerated,
    /// `serve`: a handshake is answered.
    Serves,
    /// Stdout is the validation JSON document.
    ValidateJson,
    /// Stdout is the `eval` JSON document, read under this profile.
    Eval(&'static str),
    /// `fuzz` wrote its summaries in this folder, with at least one finding whose case
    /// folder holds a manifest.
    Findings(&'static str),
}

/// Every example with its check, in the order they run (later ones use earlier outputs).
const EXAMPLES: &[(&str, Check)] = &[
    (
        "cargo run --release -- run",
        Check::Run(&[0, 1], Then::ReportsIn("reports/latest/rapier")),
    ),
    (
        "cargo test --workspace",
        Check::Otherwise("this test is part of it"),
    ),
    (
        "physics-cts run --impl rapier --out reports/rapier",
        Check::Run(&[0, 1], Then::ReportsIn("reports/rapier")),
    ),
    (
        "physics-cts run --impl rapier --impl physx --impl reference",
        // Without node the named external implementation cannot start: exit 3.
        Check::Run(&[0, 1, 3], Then::ReportsIn("reports/latest/interop")),
    ),
    (
        "physics-cts run --impl physx",
        Check::Run(&[0, 1, 3], Then::Nothing),
    ),
    (
        "physics-cts run --impl jolt",
        // Without node, or without `npm ci` in its folder, Jolt cannot start: exit 3.
        Check::Run(&[0, 1, 3], Then::Nothing),
    ),
    (
        "physics-cts run --impl rapier --filter 'khr25/gen/joint/*'",
        Check::Run(
            &[0, 1],
            Then::Filter("khr25/gen/joint/*", "khr25/gen/joint/"),
        ),
    ),
    (
        "physics-cts run --impl rapier --filter '*/joint/*'",
        Check::Run(&[0, 1], Then::Filter("*/joint/*", "/joint/")),
    ),
    (
        "physics-cts run --impl stdio --filter 'vrm/*' -- python3 harness/examples/python/vrm_adapter.py",
        Check::Run(&[0, 1], Then::ReportsIn("reports/latest/stdio")),
    ),
    ("physics-cts serve rapier", Check::Run(&[0], Then::Serves)),
    (
        "physics-cts diff reports/rapier reports/latest/rapier",
        Check::Run(&[0], Then::Diff),
    ),
    (
        "physics-cts run --impl stdio --jobs 4 -- node adapter.js",
        Check::Otherwise(
            "`node adapter.js` stands for the reader's adapter; --jobs is tested in tests/runner.rs",
        ),
    ),
    (
        "physics-cts run --impl rapier --out reports/r --resume reports/r",
        // Resumes a copy of the finished run in reports/rapier (made just before): the same
        // run, so nothing is left to run and the reports are written again.
        Check::Run(&[0, 1], Then::ReportsIn("reports/r")),
    ),
    (
        "physics-cts run --impl rapier --shard 1/2 --out shard-1",
        Check::Run(&[0, 1], Then::ReportsIn("shard-1")),
    ),
    (
        "physics-cts run --impl rapier --shard 2/2 --out shard-2",
        Check::Run(&[0, 1], Then::ReportsIn("shard-2")),
    ),
    (
        "physics-cts merge --out reports/latest/rapier shard-1 shard-2",
        Check::Run(&[0, 1], Then::ReportsIn("reports/latest/rapier")),
    ),
    (
        "physics-cts certify --impl stdio --out my-engine-cts -- ./my-adapter",
        Check::Otherwise("`./my-adapter` stands for the reader's adapter; tests/cli_certify.rs"),
    ),
    (
        "physics-cts verify my-engine-cts [--corpus corpus/v2]",
        Check::Otherwise("a synopsis ([...] is optional); tests/cli_certify.rs"),
    ),
    (
        "physics-cts validate scene.gltf",
        Check::Run(&[0], Then::Nothing),
    ),
    (
        "physics-cts validate corpus/ more/x.glb",
        // The scratch folder's more/x.glb is not a valid GLB: exit 1, every file read.
        Check::Run(&[1], Then::Nothing),
    ),
    (
        "physics-cts validate --profile omi-2023 scene.gltf",
        Check::Run(&[0, 1], Then::Nothing),
    ),
    (
        "physics-cts validate --format json corpus/ > report.json",
        Check::Run(&[0], Then::ValidateJson),
    ),
    (
        "physics-cts eval scene.gltf",
        Check::Run(&[0], Then::Eval("khr-2024-draft")),
    ),
    (
        "physics-cts eval scene.gltf --poses poses.json",
        Check::Run(&[0], Then::Eval("khr-2024-draft")),
    ),
    (
        "physics-cts eval scene.gltf --profile omi-2023",
        // The scene is KHR: read as OMI, its KHR extensions are ignored (with a warning).
        Check::Run(&[0], Then::Eval("omi-2023")),
    ),
    (
        "physics-cts fuzz --impl rapier --mutant gravity-9-8 --cases 40",
        Check::Run(
            &[1],
            Then::Findings("reports/latest/fuzz/rapier-gravity-9-8"),
        ),
    ),
    (
        "physics-cts fuzz --impl rapier --time 600s",
        Check::Otherwise("ten minutes; the same search, bounded by --cases, runs in tests/fuzz.rs"),
    ),
    (
        "physics-cts fuzz --impl physx --time 300s",
        Check::Otherwise("needs node and five minutes; the stdio path runs in tests/fuzz.rs"),
    ),
    // Last: it replaces the scratch corpus with the whole one.
    (
        "physics-cts generate --seed 2 --count 2400 --profile all --out corpus/v2 --force",
        Check::Run(&[0], Then::Regenerated),
    ),
];

/// Cases copied into the scratch corpus: a few of each profile, joints and VRM included.
const CASES: &[&str] = &[
    "khr/control/falling-sphere",
    "omi/control/seed-004-box-collider",
    "vrm/control/seed-003-position",
    "khr/joint/hinge-pm90",
    // A generated joint case Rapier scores (the filter examples must score something).
    "khr25/gen/joint/00374",
];

/// The scratch folder: `corpus/v2` (the [`CASES`] and the first valid generated VRM case),
/// `scene.gltf`, `poses.json`, `more/x.glb`.
fn scratch(v2: &Path) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("readme_examples");
    let _ = std::fs::remove_dir_all(&dir);
    let corpus = dir.join("corpus/v2");
    std::fs::create_dir_all(&corpus).expect("scratch");
    let text = std::fs::read_to_string(v2.join("manifest.json")).expect("manifest");
    let manifest: Value = serde_json::from_str(&text).expect("json");
    let first_vrm = manifest["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|r| r["valid"] == true)
        .filter_map(|r| r["id"].as_str())
        .find(|id| id.starts_with("vrm/gen/"));
    let ids: Vec<&str> = CASES.iter().copied().chain(first_vrm).collect();
    copy_cases(v2, &corpus, &ids);
    std::fs::copy(
        v2.join("khr/control/falling-sphere.gltf"),
        dir.join("scene.gltf"),
    )
    .expect("scene");
    std::fs::write(dir.join("poses.json"), r#"{"nodes": {}}"#).expect("poses");
    std::fs::create_dir_all(dir.join("more")).expect("mkdir");
    std::fs::write(dir.join("more/x.glb"), b"not a glb").expect("glb");
    // The VRM example's adapter, at the path the README gives.
    let py = dir.join("harness/examples/python");
    std::fs::create_dir_all(&py).expect("mkdir");
    std::fs::copy(
        root().join("harness/examples/python/vrm_adapter.py"),
        py.join("vrm_adapter.py"),
    )
    .expect("adapter");
    dir
}

/// The example's arguments (after `physics-cts`), quotes removed, and a `> file` redirection.
fn arguments(command: &str) -> (Vec<String>, Option<String>) {
    let rest = command
        .strip_prefix("physics-cts ")
        .or_else(|| command.strip_prefix("cargo run --release -- "))
        .expect("a physics-cts command");
    let (rest, redirect) = match rest.split_once(" > ") {
        Some((a, f)) => (a, Some(f.trim().to_owned())),
        None => (rest, None),
    };
    let args = rest
        .split_whitespace()
        .map(|a| a.trim_matches('\'').to_owned())
        .collect();
    (args, redirect)
}

fn run_example(dir: &Path, command: &str) -> Output {
    let (args, redirect) = arguments(command);
    let mut c = Command::new(BIN);
    c.current_dir(dir).args(&args);
    if args.first().map(String::as_str) == Some("serve") {
        c.stdin(Stdio::piped()).stdout(Stdio::piped());
        let mut child = c.spawn().expect("serve starts");
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().expect("stdin");
            writeln!(
                stdin,
                r#"{{"seq": 0, "op": "handshake", "protocol_version": {}}}"#,
                physics_cts::protocol::PROTOCOL_VERSION
            )
            .expect("handshake sent");
        }
        return child.wait_with_output().expect("serve ends at EOF");
    }
    let out = c.output().expect("runs");
    if let Some(file) = redirect {
        std::fs::write(dir.join(file), &out.stdout).expect("redirect");
    }
    out
}

fn then(dir: &Path, v2: &Path, comment: &str, check: Then, out: &Output) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    match check {
        Then::Nothing => {}
        Then::ReportsIn(folder) => {
            for f in ["results.ndjson", "summary.json", "report.html"] {
                assert!(dir.join(folder).join(f).is_file(), "{folder}/{f} written");
            }
        }
        Then::Filter(pattern, part) => {
            let corpus = Corpus::open(v2).expect("corpus/v2");
            let selected = corpus.filtered(Some(pattern));
            assert!(
                selected.iter().all(|e| e.id.contains(part)),
                "{pattern} selects only ids with {part}"
            );
            let said: usize = comment
                .split(|c: char| !c.is_ascii_digit())
                .find(|w| !w.is_empty())
                .and_then(|w| w.parse().ok())
                .expect("the comment says how many cases");
            assert_eq!(selected.len(), said, "{pattern}: the comment says {said}");
        }
        Then::Diff => {
            for section in ["fixed: ", "broken: ", "new crashes: ", "removed: "] {
                assert!(stdout.contains(section), "{stdout}");
            }
        }
        Then::Regenerated => {
            let generated = dir.join("corpus/v2");
            let mut differ = Vec::new();
            compare(&generated, v2, Path::new(""), &mut differ);
            assert!(differ.is_empty(), "regenerated corpus differs: {differ:?}");
        }
        Then::Findings(folder) => {
            let text = std::fs::read_to_string(dir.join(folder).join("summary.json"))
                .expect("summary.json");
            let v: Value = serde_json::from_str(&text).expect("JSON");
            let first = &v["findings"][0];
            let case = first["folder"].as_str().expect("a finding with its folder");
            assert!(
                dir.join(folder)
                    .join(case)
                    .join("case/manifest.json")
                    .is_file(),
                "{text}"
            );
            assert!(dir.join(folder).join("summary.md").is_file());
        }
        Then::Serves => {
            let line = stdout.lines().next().expect("an answer");
            let v: Value = serde_json::from_str(line).expect("JSON");
            assert_eq!(v["seq"], 0, "{line}");
            assert!(v["ok"]["name"].is_string(), "{line}");
        }
        Then::ValidateJson => {
            let text = std::fs::read_to_string(dir.join("report.json")).expect("report.json");
            let v: Value = serde_json::from_str(&text).expect("JSON");
            assert!(
                v["summary"]["files"].as_u64().is_some_and(|n| n > 0),
                "{text}"
            );
        }
        Then::Eval(profile) => {
            let v: Value = serde_json::from_str(&stdout).expect("JSON");
            assert_eq!(v["profile"], profile, "{stdout}");
        }
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("folder") {
        let e = e.expect("entry");
        std::fs::copy(e.path(), to.join(e.file_name())).expect("copy");
    }
}

/// Paths under `a` and `b` whose bytes differ or that only one has (`known-failures/` is
/// hand-written, kept by `--force`; the README is hand-written too).
fn compare(a: &Path, b: &Path, rel: &Path, differ: &mut Vec<PathBuf>) {
    let names = |d: &Path| -> std::collections::BTreeSet<std::ffi::OsString> {
        std::fs::read_dir(d)
            .map(|r| r.filter_map(Result::ok).map(|e| e.file_name()).collect())
            .unwrap_or_default()
    };
    let (na, nb) = (names(&a.join(rel)), names(&b.join(rel)));
    for n in na.union(&nb) {
        let r = rel.join(n);
        if r == Path::new("known-failures") || r == Path::new("README.md") {
            continue;
        }
        let (pa, pb) = (a.join(&r), b.join(&r));
        if pa.is_dir() && pb.is_dir() {
            compare(a, b, &r, differ);
        } else if std::fs::read(&pa).ok() != std::fs::read(&pb).ok() {
            differ.push(r);
        }
    }
}

#[test]
fn every_readme_example_does_what_its_comment_says() {
    let v2 = root().join("corpus/v2");
    if !v2.join("manifest.json").exists() {
        println!("no corpus/v2: skipped");
        return;
    }
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let found = examples(&readme);
    for (command, _) in &found {
        assert!(
            EXAMPLES.iter().any(|(c, _)| c == command),
            "README example without a check in tests/readme_examples.rs: {command}"
        );
    }
    let python = Command::new("python3").arg("--version").output().is_ok();
    let dir = scratch(&v2);
    for (command, check) in EXAMPLES {
        let Some((_, comment)) = found.iter().find(|(c, _)| c == command) else {
            panic!("{command}: no longer in the README; remove its check");
        };
        let (codes, after) = match *check {
            Check::Run(codes, after) => (codes, after),
            Check::Otherwise(why) => {
                println!("{command}: not run here: {why}");
                continue;
            }
        };
        if command.contains("python3") && !python {
            println!("{command}: python3 is not available, skipped");
            continue;
        }
        if command.contains("--resume reports/r") {
            copy_dir(&dir.join("reports/rapier"), &dir.join("reports/r"));
        }
        let out = run_example(&dir, command);
        let code = out.status.code().unwrap_or(-1);
        assert!(
            codes.contains(&code),
            "{command}: exit {code}, expected one of {codes:?}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if code == i32::from(physics_cts::exit::UNAVAILABLE) {
            // An adapter over stdio needs node and its npm packages: the run stops before any
            // report, and names the implementation it lacks.
            let err = String::from_utf8_lossy(&out.stderr);
            let named = physics_cts::external::names()
                .into_iter()
                .any(|name| command.contains(name) && err.contains(name));
            assert!(named, "{command}: {err}");
            println!("{command}: not available here: {err}");
            continue;
        }
        then(&dir, &v2, comment, after, &out);
    }
}
