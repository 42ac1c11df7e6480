//! Evidence that the reference adapter is the reference: its interpretation is the expectation
//! of `reference::expect` in the interface's vocabulary, its constraint outputs are those of
//! `reference::constraints`, and it refuses to simulate. And a cross-check: on a scene Rapier
//! can express exactly, the Rapier adapter reads back what the reference expects.

use std::path::Path;

use physics_cts::adapters::rapier::RapierImplementation;
use physics_cts::adapters::reference::ReferenceImplementation;
use physics_cts::implementation::{
    BodyKind, ImplError, Implementation, Interpretation, LoadOutcome, LoadRequest, MassReport,
    SimConfig,
};
use reference::poses::Poses;
use reference::scene::MassValue;
use serde_json::{Value, json};
use support::write;

mod support;

fn load(imp: &mut dyn Implementation, path: &Path, profile: &str) -> LoadOutcome {
    imp.load(&LoadRequest {
        path: path.to_owned(),
        profile: profile.parse().expect("a profile"),
    })
    .expect("answers")
}

/// A static box, a dynamic sphere with a material and filter, a kinematic box with a local
/// velocity on a turned node, a body with mass 0 (infinite), and a 3D-linear joint to the world.
fn physics_scene() -> Value {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_collision_shapes", "KHR_physics_rigid_bodies"],
        "extensions": {
            "KHR_collision_shapes": {"shapes": [
                {"type": "box", "box": {"size": [4.0, 1.0, 4.0]}},
                {"type": "sphere", "sphere": {"radius": 0.5}},
            ]},
            "KHR_physics_rigid_bodies": {
                "physicsMaterials": [
                    {"staticFriction": 0.5, "dynamicFriction": 0.4, "restitution": 0.1,
                     "frictionCombine": "minimum"},
                    {"staticFriction": 0.9, "dynamicFriction": 0.9, "restitution": 0.3,
                     "frictionCombine": "multiply"},
                ],
                "collisionFilters": [{"collisionSystems": ["a"], "collideWithSystems": ["a"]}],
                "physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "max": 0.25}]}],
            },
        },
        "nodes": [
            {"name": "ground", "translation": [0.0, -0.5, 0.0], "children": [3],
             "extensions": {"KHR_physics_rigid_bodies": {"collider": {"shape": 0, "physicsMaterial": 0}}}},
            {"name": "ball", "translation": [0.0, 1.0, 0.0], "children": [2],
             "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 2.0, "centerOfMass": [0.0, 0.1, 0.0],
                "inertiaDiagonal": [0.2, 0.3, 0.4]},
                "collider": {"shape": 1, "physicsMaterial": 1, "collisionFilter": 0}}}},
            {"name": "pivot", "translation": [0.0, -0.5, 0.0],
             "extensions": {"KHR_physics_rigid_bodies": {"joint": {"connectedNode": 3, "joint": 0}}}},
            {"name": "anchor", "translation": [0.0, 1.0, 0.0]},
            {"name": "mover", "translation": [3.0, 1.0, 0.0], "rotation": [0.0, 0.0, h, h],
             "extensions": {"KHR_physics_rigid_bodies": {"motion": {"isKinematic": true, "mass": 1.0,
                "inertiaDiagonal": [1.0, 1.0, 1.0], "linearVelocity": [1.0, 0.0, 0.0]},
                "collider": {"shape": 0}}}},
            {"name": "heavy", "translation": [-3.0, 1.0, 0.0],
             "extensions": {"KHR_physics_rigid_bodies": {"motion": {"mass": 0.0,
                "inertiaDiagonal": [0.0, 1.0, 1.0]},
                "collider": {"shape": 1}}}},
        ],
        "scenes": [{"nodes": [0, 1, 4, 5]}],
        "scene": 0,
    })
}

fn expectation(path: &Path) -> (reference::scene::Scene, reference::expect::Expectation) {
    let reading = reference::read_path(path, None).expect("readable");
    assert!(!reading.has_errors(), "{:?}", reading.issues);
    let scene = reading.scene.expect("a scene");
    let e = reference::expect::evaluate(&scene, &Poses::default()).expect("evaluates");
    (scene, e)
}

#[test]
fn handshake_declares_every_check_but_dynamics() {
    let mut r = ReferenceImplementation::new();
    let h = r.handshake().expect("handshake");
    assert_eq!(h.name, "reference");
    let checks: Vec<&str> = h.capabilities.checks.iter().map(|c| c.name()).collect();
    assert_eq!(checks, ["validation", "interpretation", "constraints"]);
    assert!(h.capabilities.supports_feature("vrm.aim.model-local"));
    assert!(h.capabilities.supports_feature("joint.limit.angular.3"));
    // Every profile, each written out: a profile the reference stopped declaring fails here.
    let mut profiles: Vec<&str> = h.capabilities.profiles.iter().map(|p| p.id()).collect();
    profiles.sort();
    assert_eq!(
        profiles,
        [
            "khr-2024-draft",
            "khr-2025",
            "khr-2026",
            "omi-2023",
            "omi-2024",
            "omi-2025",
            "vrmc-constraints-draft",
            "vrmc-node-constraint-1.0",
        ]
    );
    let path = write("simulate", &physics_scene());
    assert!(matches!(
        load(&mut r, &path, "khr-2024-draft"),
        LoadOutcome::Loaded { .. }
    ));
    assert!(matches!(
        r.configure(&SimConfig::default()),
        Err(ImplError::NotSupported(_))
    ));
    assert!(matches!(r.step(1), Err(ImplError::NotSupported(_))));
    assert!(matches!(r.observe(), Err(ImplError::NotSupported(_))));
    r.unload().expect("unload");
    assert!(matches!(r.interpretation(), Err(ImplError::BadRequest(_))));
}

#[test]
fn interpretation_is_the_reference_expectation() {
    let path = write("expectation", &physics_scene());
    let (_, e) = expectation(&path);
    let mut r = ReferenceImplementation::new();
    load(&mut r, &path, "khr-2024-draft");
    let i = r.interpretation().expect("interpretation");
    assert_eq!(i.bodies.len(), e.bodies.len());
    for (b, x) in i.bodies.iter().zip(&e.bodies) {
        assert_eq!(b.node, x.node);
        let mass = match x.mass {
            MassValue::EngineComputes => MassReport::Unspecified,
            MassValue::Infinite => MassReport::Infinite,
            MassValue::Finite(m) => MassReport::Finite(m),
        };
        assert_eq!(b.mass, mass);
        assert_eq!(b.center_of_mass, x.center_of_mass.map(Into::into));
        assert_eq!(b.linear_velocity, <[f64; 3]>::from(x.linear_velocity));
    }
    // Hand-checked values: the kinematic mover is turned 90 degrees about z, so its local
    // velocity (1, 0, 0) is (0, 1, 0) in world space; mass 0 is infinite [D-MASS-ZERO].
    let body = |n| i.bodies.iter().find(|b| b.node == n).expect("body");
    let v = body(4).linear_velocity;
    assert!(v[0].abs() < 1e-9 && (v[1] - 1.0).abs() < 1e-9, "{v:?}");
    assert_eq!(body(4).kind, BodyKind::Kinematic);
    assert_eq!(body(5).mass, MassReport::Infinite);
    assert_eq!(body(5).inertia_diagonal[0], MassReport::Infinite);
    assert_eq!(body(1).inertia_diagonal[2], MassReport::Finite(0.4));
    // Friction: minimum beats multiply, min(0.5, 0.9) = 0.5 [D-COMBINE].
    let pair = i
        .pairs
        .iter()
        .find(|p| (p.a, p.b) == (0, 1))
        .expect("ground-ball");
    assert_eq!(pair.static_friction, Some(0.5));
    assert_eq!(pair.dynamic_friction, Some(0.4));
    assert_eq!(i.pairs.len(), e.pairs.len());
    for (p, x) in i.pairs.iter().zip(&e.pairs) {
        assert_eq!(p.collide, x.contact);
        assert_eq!(p.restitution, x.restitution.value);
    }
    // The joint: frame A the pivot, 0.5 m below the ball's origin; frame B the anchor in the
    // world (no body), at (0, -0.5, 0) + (0, 1, 0) = (0, 0.5, 0).
    let j = &i.joints[0];
    assert_eq!(j.bodies, [Some(1), None]);
    assert_eq!(j.frames[0].translation, [0.0, -0.5, 0.0]);
    assert_eq!(j.frames[1].translation, [0.0, 0.5, 0.0]);
    // Colliders: the ground box at its world pose, the ball's sphere at its body's origin.
    let c = i.colliders.iter().find(|c| c.node == 0).expect("ground");
    assert_eq!((c.body, c.translation), (None, [0.0, -0.5, 0.0]));
    assert_eq!(c.parameters["size"], json!([4.0, 1.0, 4.0]));
}

/// Round trip through JSON: the reports are protocol messages.
fn round_trip(i: &Interpretation) {
    let text = serde_json::to_string(i).expect("serialises");
    let back: Interpretation = serde_json::from_str(&text).expect("parses");
    assert_eq!(&back, i);
}

#[test]
fn the_corpus_reads_the_same_through_the_adapter() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    let mut stack = vec![repo.join("reference/tests/validation"), repo.join("corpus")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("corpus").flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "gltf") {
                files.push(p);
            }
        }
    }
    let mut loaded = 0;
    for f in &files {
        let reading = reference::read_path(f, None).expect("readable");
        let mut r = ReferenceImplementation::new();
        let Some(profile) = reading.profile else {
            continue;
        };
        match load(&mut r, f, profile.id()) {
            LoadOutcome::Loaded { .. } => {
                assert!(!reading.has_errors(), "{} loaded with errors", f.display());
                let Some(scene) = reading.scene else { continue };
                let Ok(e) = reference::expect::evaluate(&scene, &Poses::default()) else {
                    assert!(r.interpretation().is_err());
                    continue;
                };
                let i = r.interpretation().expect("interpretation");
                assert_eq!(i.bodies.len(), e.bodies.len(), "{}", f.display());
                assert_eq!(i.pairs.len(), e.pairs.len(), "{}", f.display());
                assert_eq!(i.joints.len(), e.joints.len(), "{}", f.display());
                round_trip(&i);
                loaded += 1;
            }
            LoadOutcome::Rejected { codes, .. } => {
                let mut expected: Vec<String> = reading
                    .error_codes()
                    .iter()
                    .map(|c| c.id().to_owned())
                    .collect();
                expected.sort();
                expected.dedup();
                assert_eq!(codes, expected, "{}", f.display());
            }
        }
    }
    assert!(loaded > 500, "only {loaded} valid files");
}

#[test]
fn constraint_outputs_are_the_reference_evaluator() {
    // "follower" copies the local rotation of "source" about y (freeze y only), weight 1
    // [D-VRM-ROTATION]; "tracker" follows the local translation of "source" with weight 0.5
    // [D-VRM-POSITION]: a source moved by (2, 0, 0) moves it by (1, 0, 0) from its rest (0, 3, 0).
    let doc = json!({
        "asset": {"version": "2.0"},
        "extensionsUsed": ["VRMC_constraints-1.0"],
        "nodes": [
            {"name": "source"},
            {"name": "follower", "extensions": {"VRMC_constraints-1.0": {"rotation": {
                "source": 0, "sourceSpace": "local", "destinationSpace": "local",
                "freezeAxes": [false, true, false], "weight": 1.0}}}},
            {"name": "tracker", "translation": [0.0, 3.0, 0.0], "extensions": {"VRMC_constraints-1.0": {"position": {
                "source": 0, "sourceSpace": "local", "destinationSpace": "local", "weight": 0.5}}}},
        ],
        "scenes": [{"nodes": [0, 1, 2]}],
        "scene": 0,
    });
    let path = write("vrm", &doc);
    let mut r = ReferenceImplementation::new();
    assert!(matches!(
        load(&mut r, &path, "vrmc-constraints-draft"),
        LoadOutcome::Loaded { .. }
    ));
    // 90 degrees about y: (0, sin 45, 0, cos 45).
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let poses =
        json!({"nodes": {"0": {"translation": [2.0, 0.0, 0.0], "rotation": [0.0, h, 0.0, h]}}});
    let out = r.evaluate_constraints(&poses).expect("evaluates");
    assert_eq!(out.iter().map(|n| n.node).collect::<Vec<_>>(), [1, 2]);
    let follower = &out[0];
    assert!((follower.rotation[1] - h).abs() < 1e-9 && (follower.rotation[3] - h).abs() < 1e-9);
    let tracker = &out[1];
    assert!((tracker.translation[0] - 1.0).abs() < 1e-12, "{tracker:?}");
    assert!((tracker.translation[1] - 3.0).abs() < 1e-12, "{tracker:?}");
    // The same as the reference evaluator, to the bit.
    let (scene, _) = expectation(&path);
    let parsed = Poses::from_json(&poses.to_string(), scene.nodes.len()).expect("poses");
    let locals =
        reference::constraints::evaluate(&scene, &parsed.locals(&scene)).expect("evaluates");
    for n in &out {
        assert_eq!(n.translation, <[f64; 3]>::from(locals[n.node].translation));
        assert_eq!(n.scale, <[f64; 3]>::from(locals[n.node].scale));
    }
    // Bad poses are a bad request, not a panic.
    assert!(matches!(
        r.evaluate_constraints(&json!({"nodes": {"9": {}}})),
        Err(ImplError::BadRequest(_))
    ));
}

/// The item of Rapier's list `got` that is `same` as one of the reference's.
fn counterpart<'a, T>(got: &'a [T], what: &str, same: impl Fn(&T) -> bool) -> &'a T {
    got.iter()
        .find(|g| same(g))
        .unwrap_or_else(|| panic!("{what} in Rapier"))
}

#[test]
fn rapier_reads_back_what_the_reference_expects() {
    let path = write("cross", &physics_scene());
    let mut r = ReferenceImplementation::new();
    let mut rapier = RapierImplementation::new();
    load(&mut r, &path, "khr-2024-draft");
    assert!(matches!(
        load(&mut rapier, &path, "khr-2024-draft"),
        LoadOutcome::Loaded { .. }
    ));
    let want = r.interpretation().expect("reference");
    let got = rapier.interpretation().expect("rapier");
    let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-5);
    for b in &want.bodies {
        let g = counterpart(&got.bodies, "body", |g| g.node == b.node);
        assert_eq!(g.kind, b.kind);
        assert!(
            close(&g.linear_velocity, &b.linear_velocity),
            "{g:?} vs {b:?}"
        );
        if let MassReport::Finite(m) = b.mass {
            assert!(
                matches!(g.mass, MassReport::Finite(x) if (x - m).abs() < 1e-5),
                "{g:?}"
            );
        } else if b.mass == MassReport::Infinite {
            assert_eq!(g.mass, MassReport::Infinite);
        }
        if let (Some(w), Some(c)) = (b.center_of_mass, g.center_of_mass) {
            assert!(close(&w, &c));
        }
    }
    for c in &want.colliders {
        let g = counterpart(&got.colliders, "collider", |g| g.node == c.node);
        assert_eq!((g.body, &g.shape), (c.body, &c.shape));
        assert!(close(&g.translation, &c.translation) && close(&g.rotation, &c.rotation));
    }
    for p in &want.pairs {
        let g = counterpart(&got.pairs, "pair", |g| (g.a, g.b) == (p.a, p.b));
        assert_eq!(g.collide, p.collide, "{p:?}");
    }
    for j in &want.joints {
        let g = counterpart(&got.joints, "joint", |g| g.node == j.node);
        assert_eq!(g.bodies, j.bodies);
        for (a, b) in g.frames.iter().zip(&j.frames) {
            assert!(close(&a.translation, &b.translation) && close(&a.rotation, &b.rotation));
        }
    }
}
