//! Golden files for every report format: a fixed run (two implementations, every verdict,
//! measured values with tolerances, characters that need escaping) rendered into each format
//! and compared byte for byte with `tests/golden/reports/`. `BLESS=1 cargo test -p physics-cts
//! --test reports` rewrites them; review the diff before committing.

use golden_file::assert_golden;
use physics_cts::case::{CaseEntry, Tier};
use physics_cts::check::CheckResult;
use physics_cts::implementation::Capabilities;
use physics_cts::report::{self, csv, diff::Diff, html, junit, markdown, ndjson, summary};
use physics_cts::results::{CaseResult, ImplInfo, Run};
use physics_cts::status::Status;
use physics_cts::tolerance::Tolerance;

mod golden_file;

/// `actual` is the golden file `tests/golden/reports/<name>`.
fn golden(name: &str, actual: &str) {
    assert_golden(&format!("reports/{name}"), actual);
}

fn entry(id: &str, area: &str, tier: Tier, features: &[&str]) -> CaseEntry {
    CaseEntry {
        id: id.into(),
        file: format!("{id}.gltf"),
        profile: Some(
            match id.split('/').next() {
                Some("omi") => "omi-2023",
                Some("vrm") => "vrmc-constraints-draft",
                _ => "khr-2024-draft",
            }
            .into(),
        ),
        area: area.into(),
        features: features.iter().map(|f| (*f).to_owned()).collect(),
        tier,
        valid: true,
        expected_codes: Vec::new(),
        seed: None,
        sha256: String::new(),
    }
}

fn graded(
    check: &str,
    measured: f64,
    r: f64,
    a: f64,
    decisions: &[&str],
    message: &str,
) -> CheckResult {
    CheckResult::graded(
        check,
        measured,
        Tolerance::new(r, a).expect("valid"),
        message,
    )
    .with_decisions(decisions)
}

fn pass(check: &str) -> CheckResult {
    CheckResult::new(check, Status::Pass, "")
}

/// The fixed run every golden file renders.
pub fn fixture() -> Run {
    let hinge = entry(
        "khr/joint/hinge-pm90",
        "joint",
        Tier::Required,
        &["joint.limit.angular.1", "shape.box"],
    );
    let cone = entry(
        "khr/joint/cone",
        "joint",
        Tier::Required,
        &["joint.limit.angular.2"],
    );
    let capsule = entry(
        "omi/shape/capsule-height",
        "shape",
        Tier::Optional,
        &["shape.capsule"],
    );
    let vrm = entry("vrm/aim/yaw", "aim", Tier::Informative, &["vrm.aim"]);
    let crash = entry(
        "khr/body/mass-zero",
        "body",
        Tier::Required,
        &["body.mass.infinite"],
    );
    let results = vec![
        CaseResult::new(
            "rapier",
            &hinge,
            vec![
                pass("load"),
                graded(
                    "dynamics.limit-0",
                    0.021,
                    0.0175,
                    0.035,
                    &["D-METRICS", "D-TWIST-SIGNED"],
                    "largest violation of coupled limit 0: 0.021 at t = 1.5",
                ),
            ],
            None,
            12,
        ),
        CaseResult::new(
            "rapier",
            &cone,
            vec![CheckResult::new(
                "capabilities",
                Status::NotSupported,
                "features not declared: joint.limit.angular.3",
            )],
            None,
            0,
        ),
        CaseResult::new(
            "rapier",
            &capsule,
            vec![
                pass("load"),
                graded(
                    "interpretation.colliders.shape_size",
                    0.5,
                    1e-6,
                    1e-4,
                    &["D-CAPSULE"],
                    "collider 1: capsule height Some(1.5) expected 1 <full height read as cap distance>",
                ),
            ],
            Some("Rapier reads the \"height\" as the full height & `SharedShape::capsule_y` takes half of it".into()),
            7,
        ),
        CaseResult::new(
            "rapier",
            &vrm,
            vec![CheckResult::new(
                "constraints",
                Status::Skip,
                "the implementation does not take part in constraints",
            )],
            None,
            0,
        ),
        CaseResult::new(
            "rapier",
            &crash,
            vec![
                pass("load"),
                graded(
                    "dynamics.rest.translation",
                    0.3,
                    0.01,
                    0.1,
                    &["D-MASS-ZERO"],
                    "largest displacement of nodes [0]: 0.300000 m",
                )
                .with_series(vec![[0.0, 0.0], [0.5, 0.05], [1.0, 0.3], [1.5, 0.12], [2.0, 0.008]]),
                CheckResult::new("step", Status::Crash, "panicked: attempt to divide by zero"),
            ],
            None,
            3,
        ),
        CaseResult::new(
            "reference",
            &hinge,
            vec![pass("load"), pass("interpretation.joints.bodies")],
            None,
            1,
        ),
        CaseResult::new(
            "reference",
            &cone,
            vec![pass("load")],
            Some("stale entry".into()),
            1,
        ),
        CaseResult::new(
            "reference",
            &capsule,
            vec![
                pass("load"),
                CheckResult::new(
                    "dynamics.ground",
                    Status::HarnessError,
                    "the window holds no observation",
                ),
            ],
            None,
            1,
        ),
        CaseResult::new(
            "reference",
            &vrm,
            vec![graded(
                "constraints.bend.rotation",
                2e-7,
                1e-6,
                1e-4,
                &["D-VRM-AIM"],
                "node 3",
            )],
            None,
            2,
        ),
        CaseResult::new("reference", &crash, vec![pass("load")], None, 1),
    ];
    let caps = |profiles: &[&str], checks: &[&str]| Capabilities {
        profiles: profiles
            .iter()
            .map(|p| p.parse().expect("a profile"))
            .collect(),
        features: vec!["joint.".into(), "shape.".into()],
        checks: serde_json::from_value(serde_json::json!(checks)).expect("check families"),
        batch: false,
    };
    Run {
        suite: "physics-cts 0.1.0".into(),
        corpus: "corpus/v1".into(),
        implementations: vec![
            ImplInfo {
                name: "rapier".into(),
                version: "0.1.0".into(),
                engine: "rapier3d 0.36 (f32)".into(),
                capabilities: caps(
                    &["khr-2024-draft", "omi-2023"],
                    &["interpretation", "dynamics"],
                ),
            },
            ImplInfo {
                name: "reference".into(),
                version: "0.1.0".into(),
                engine: "reference".into(),
                capabilities: caps(
                    &["khr-2024-draft", "omi-2023", "vrmc-constraints-draft"],
                    &["validation", "interpretation", "constraints"],
                ),
            },
        ],
        results,
        duration_ms: 1234,
    }
}

#[test]
fn ndjson_log() {
    golden("results.ndjson", &ndjson::render(&fixture()));
}

#[test]
fn ndjson_reads_back_to_the_same_run() {
    let run = fixture();
    let back = ndjson::read(ndjson::render(&run).as_bytes()).expect("reads");
    assert_eq!(back, run);
}

#[test]
fn summary_json() {
    golden("summary.json", &summary::render(&fixture()));
}

#[test]
fn results_csv() {
    golden("results.csv", &csv::render(&fixture()).expect("renders"));
}

#[test]
fn junit_xml() {
    golden("junit.xml", &junit::render(&fixture()).expect("renders"));
}

#[test]
fn summary_markdown() {
    golden("summary.md", &markdown::render(&fixture()));
}

#[test]
fn report_html() {
    let page = html::render(&fixture());
    // Self-contained: no external asset, no script.
    for needle in ["<script", "src=", "href=", "@import", "url("] {
        assert!(!page.contains(needle), "report.html contains {needle}");
    }
    // Text from the run is escaped.
    assert!(page.contains("&lt;full height read as cap distance&gt;"));
    // What needs attention comes first, with the failing dynamics check drawn against its
    // bands; the known failures come last, each reason once, its code spans as code.
    let at = |needle: &str| {
        page.find(needle)
            .unwrap_or_else(|| panic!("{needle} missing"))
    };
    assert!(at("<h2>Needs attention</h2>") < at("<h2>Scores</h2>"));
    assert!(at("<svg class=\"chart\"") < at("<h2>Scores</h2>"));
    assert_eq!(
        page.matches("<svg").count(),
        1,
        "one failing dynamics check"
    );
    assert!(at("<h2>Scores</h2>") < at("<h2>rapier: known failures (1)</h2>"));
    assert_eq!(page.matches("takes half of it").count(), 1, "a reason once");
    assert!(page.contains("<code>SharedShape::capsule_y</code>"));
    golden("report.html", &page);
}

/// The fixture with its first implementation only: no interop section anywhere.
fn one_implementation() -> Run {
    let mut run = fixture();
    run.implementations.truncate(1);
    run.results.retain(|r| r.implementation == "rapier");
    run
}

#[test]
fn one_implementation_has_no_interop() {
    let run = one_implementation();
    let md = markdown::render(&run);
    assert!(!md.contains("## Interop"));
    golden("one/summary.md", &md);
    let json = summary::render(&run);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert!(v["interop"].is_null());
    golden("one/summary.json", &json);
    let page = html::render(&run);
    assert!(!page.contains("<h2>Interop</h2>"));
    golden("one/report.html", &page);
}

/// The interop figures of the fixture, worked by hand. Five cases, two implementations:
/// - `khr/joint/hinge-pm90`: rapier QUALITY_WARNING (0.021 between the recommended 0.0175 and
///   the allowed 0.035: a pass), reference PASS: interoperable;
/// - `khr/joint/cone`: rapier NOT_SUPPORTED, reference PASS: unproven, a disagreement;
/// - `omi/shape/capsule-height`: rapier FAIL (0.5 > 1e-4), reference HARNESS_ERROR: failing,
///   a disagreement;
/// - `vrm/aim/yaw` (informative): rapier SKIP, reference PASS: unproven, a disagreement;
/// - `khr/body/mass-zero`: rapier CRASH, reference PASS: failing, a disagreement.
#[test]
fn interop_figures_by_hand() {
    let run = fixture();
    let v: serde_json::Value = serde_json::from_str(&summary::render(&run)).expect("json");
    let i = &v["interop"];
    assert_eq!(
        i["implementations"],
        serde_json::json!(["rapier", "reference"])
    );
    assert_eq!(
        i["cases"]["interoperable"],
        serde_json::json!(["khr/joint/hinge-pm90"])
    );
    assert_eq!(
        i["cases"]["unproven"],
        serde_json::json!(["khr/joint/cone", "vrm/aim/yaw"])
    );
    assert_eq!(
        i["cases"]["failing"],
        serde_json::json!(["khr/body/mass-zero", "omi/shape/capsule-height"])
    );
    let req = &i["total"]["required"];
    assert_eq!(
        (
            &req["cases"],
            &req["interoperable"],
            &req["unproven"],
            &req["failing"],
            &req["disagreements"]
        ),
        (
            &serde_json::json!(3),
            &serde_json::json!(1),
            &serde_json::json!(1),
            &serde_json::json!(1),
            &serde_json::json!(2)
        )
    );
    assert_eq!(i["disagreements"].as_array().map(Vec::len), Some(4));
    assert_eq!(
        i["disagreements"][0]["statuses"],
        serde_json::json!({"rapier": "CRASH", "reference": "PASS"})
    );
    // shape.box only tags the hinge (required): 1 of 1 interoperable.
    assert_eq!(i["features"]["shape.box"]["required"]["interoperable"], 1);
    let md = markdown::render(&run);
    assert!(
        md.contains("### Cases where the implementations disagree (4)"),
        "{md}"
    );
    assert!(
        md.contains("| `khr/body/mass-zero` | required | CRASH | PASS | failing |"),
        "{md}"
    );
    assert!(
        md.contains(
            "The other 1 case(s) have the same outcome on every implementation: 1 interoperable"
        ),
        "{md}"
    );
}

#[test]
fn diff_text() {
    let old = fixture();
    let mut new = fixture();
    // rapier: the crash is fixed, the hinge breaks; reference: the capsule crashes now.
    for r in &mut new.results {
        match (r.implementation.as_str(), r.case.as_str()) {
            ("rapier", "khr/body/mass-zero") => r.status = Status::Pass,
            ("rapier", "khr/joint/hinge-pm90") => r.status = Status::Fail,
            ("reference", "omi/shape/capsule-height") => r.status = Status::Crash,
            _ => {}
        }
    }
    new.results
        .retain(|r| r.case != "vrm/aim/yaw" || r.implementation != "reference");
    let d = Diff::of(&old, &new);
    assert_eq!(d.fixed.len(), 1);
    assert_eq!(d.broken.len(), 1);
    assert_eq!(d.new_crashes.len(), 1);
    assert!(d.regressed());
    assert!(!Diff::of(&old, &old).regressed());
    golden("diff.txt", &d.render());
}

#[test]
fn write_summaries_writes_every_file() {
    let dir = std::env::temp_dir().join(format!("physics-cts-reports-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    report::write_summaries(&dir, &fixture()).expect("writes");
    for f in [
        report::SUMMARY_JSON,
        report::CSV,
        report::JUNIT,
        report::MARKDOWN,
        report::HTML,
    ] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
