//! Implementations that run in another process and that the suite knows by name
//! (`--impl physx`), as opposed to the in-process ones of [`crate::bundled`]. Each is a command
//! speaking the stdio protocol ([`crate::adapters::stdio`]); this module says where it lives and
//! whether it can start, without starting it.
//!
//! - `physx`: PhysX 5 (WebAssembly) under Node, `harness/adapters/physx-node/src/main.js`. The
//!   folder is found from `CARGO_MANIFEST_DIR` at build time; `CTS_PHYSX_ADAPTER=DIR` overrides
//!   it, `CTS_NODE=PROGRAM` names the Node binary (default `node`, looked up on `PATH`).
//! - `jolt`: Jolt Physics (WebAssembly, npm `jolt-physics`) under Node, reading glTF through the
//!   same JavaScript importer as `physx` (`harness/adapters/kit`),
//!   `harness/adapters/jolt-node/src/main.js`; `CTS_JOLT_ADAPTER=DIR` overrides the folder.
//! - `three-vrm`: three.js's GLTFLoader with the unmodified `@pixiv/three-vrm-node-constraint`
//!   plugin under Node (VRM 1.0 node constraints only),
//!   `harness/adapters/three-vrm-node/src/main.js`; `CTS_THREE_VRM_ADAPTER=DIR` overrides the
//!   folder.
//! - `babylon`: Babylon.js + Havok with the unmodified `babylon-gltf-rigid-body-loader` (the
//!   KHR_physics_rigid_bodies editor's loader, not on npm) under Node,
//!   `harness/adapters/babylon-havok/src/main.js`; `CTS_BABYLON_ADAPTER=DIR` overrides the
//!   folder. The loader's folder is `PHYSICS_CTS_BABYLON_LOADER=DIR`, else
//!   `../shared/vendor/babylon-gltf-rigid-body-loader-0.6.0` beside the repository; the adapter
//!   gets it as `--loader DIR`.
//! - `gltf-kun`: unavi's `gltf_kun` (crates.io, unmodified) reading OMI_physics_body and
//!   OMI_physics_shape (omi-2024, interpretation only), a Rust program of its own,
//!   `harness/adapters/gltf-kun/` (its own Cargo.toml and lock file, outside the workspace);
//!   `CTS_GLTF_KUN_ADAPTER=DIR` overrides the folder, `CTS_CARGO=PROGRAM` names cargo (default
//!   `cargo`). It is built on first use, `cargo build --release --locked`, under a file lock so
//!   concurrent first uses build once.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::adapters::stdio::{StdioConfig, StdioImplementation};
use crate::implementation::Factory;
use crate::implementation::Implementation;

/// Environment variable overriding the PhysX adapter's folder.
pub const PHYSX_DIR_ENV: &str = "CTS_PHYSX_ADAPTER";
/// Environment variable overriding the Jolt adapter's folder.
pub const JOLT_DIR_ENV: &str = "CTS_JOLT_ADAPTER";
/// Environment variable overriding the three-vrm adapter's folder.
pub const THREE_VRM_DIR_ENV: &str = "CTS_THREE_VRM_ADAPTER";
/// Environment variable overriding the Babylon adapter's folder.
pub const BABYLON_DIR_ENV: &str = "CTS_BABYLON_ADAPTER";
/// Environment variable naming the folder of the Babylon rigid-body loader's sources.
pub const BABYLON_LOADER_ENV: &str = "PHYSICS_CTS_BABYLON_LOADER";
/// The loader's folder name under `../shared/vendor` beside the repository (the default).
pub const BABYLON_LOADER_NAME: &str = "babylon-gltf-rigid-body-loader-0.6.0";
/// Environment variable naming the Node program.
pub const NODE_ENV: &str = "CTS_NODE";
/// Environment variable overriding the gltf_kun adapter's folder.
pub const GLTF_KUN_DIR_ENV: &str = "CTS_GLTF_KUN_ADAPTER";
/// Environment variable naming the cargo program that builds the Rust adapters.
pub const CARGO_ENV: &str = "CTS_CARGO";

/// Every external implementation's name, in the order matrices show them.
pub fn names() -> Vec<&'static str> {
    vec!["physx", "jolt", "three-vrm", "babylon", "gltf-kun"]
}

/// Why an external implementation cannot start here.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Unavailable {
    /// The runtime program is not on `PATH` (or the override names nothing runnable).
    #[error("{implementation}: `{program}` not found ({})", install.runtime_help())]
    RuntimeMissing {
        implementation: &'static str,
        program: String,
        install: Install,
    },
    /// The adapter's folder has no entry point.
    #[error(
        "{implementation}: no adapter at {} (set {} to the adapter's folder)",
        entry.display(),
        dir_env(implementation)
    )]
    AdapterMissing {
        implementation: &'static str,
        entry: PathBuf,
    },
    /// The adapter's npm dependencies are not installed.
    #[error(
        "{implementation}: {} is not installed: run `npm ci` in {}",
        package,
        dir.display()
    )]
    NotInstalled {
        implementation: &'static str,
        package: &'static str,
        dir: PathBuf,
    },
    /// A Rust adapter's program is not built (`run` builds it; this says how by hand).
    #[error(
        "{implementation}: the adapter is not built: run `cargo build --release --locked --manifest-path {}`",
        manifest.display()
    )]
    NotBuilt {
        implementation: &'static str,
        manifest: PathBuf,
    },
    /// Building a Rust adapter failed.
    #[error("{implementation}: building the adapter failed: {message}")]
    BuildFailed {
        implementation: &'static str,
        message: String,
    },
    /// A third-party source folder the adapter needs (not from a registry) is missing.
    #[error(
        "{implementation}: no {what} at {} (set {env} to its folder)",
        dir.display()
    )]
    SourceMissing {
        implementation: &'static str,
        what: &'static str,
        env: &'static str,
        dir: PathBuf,
    },
}

/// The environment variable overriding the named implementation's adapter folder.
pub fn dir_env(name: &str) -> &'static str {
    match name {
        "jolt" => JOLT_DIR_ENV,
        "three-vrm" => THREE_VRM_DIR_ENV,
        "babylon" => BABYLON_DIR_ENV,
        "gltf-kun" => GLTF_KUN_DIR_ENV,
        _ => PHYSX_DIR_ENV,
    }
}

/// How an adapter's dependencies are installed, and what says they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Install {
    /// A Node script: `npm ci` in the folder installs; the npm package whose presence under
    /// `dir/node_modules` says it ran.
    Npm { package: &'static str },
    /// A Rust program with its own `Cargo.toml` (the launch's `entry`) and lock file: `cargo
    /// build --release --locked` builds `dir/target/release/<binary>`, which is what runs.
    Cargo { binary: &'static str },
}

impl Install {
    /// What to do when the launch's program is missing.
    fn runtime_help(&self) -> String {
        match self {
            Install::Npm { .. } => format!("install Node.js >= 20, or set {NODE_ENV} to its path"),
            Install::Cargo { .. } => {
                format!("install Rust's cargo to build the adapter, or set {CARGO_ENV} to its path")
            }
        }
    }
}

/// Where an external implementation lives and how to start it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    pub name: &'static str,
    /// The runtime program (`node`), or the one that builds the adapter (`cargo`).
    pub program: OsString,
    /// The adapter's folder (its working directory).
    pub dir: PathBuf,
    /// The entry script, inside `dir` (Node); the adapter's `Cargo.toml` (Rust).
    pub entry: PathBuf,
    /// How its dependencies are installed (`npm ci`, or a cargo build).
    pub install: Install,
    /// Arguments after the entry script.
    pub args: Vec<OsString>,
    /// A source folder the adapter needs, if any: (folder, a file in it that must exist, what it
    /// is, the environment variable naming it).
    pub source: Option<SourceFolder>,
}

/// A third-party source folder an adapter reads (the Babylon loader).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFolder {
    pub dir: PathBuf,
    /// A file, relative to `dir`, whose presence says the folder is the right one.
    pub marker: &'static str,
    pub what: &'static str,
    pub env: &'static str,
}

/// The folder the environment variable `env` names, else `relative` to this crate's folder.
fn dir_from_env(env: &str, relative: &str) -> PathBuf {
    let default = || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::env::var_os(env).map_or_else(default, PathBuf::from)
}

/// An adapter's folder: the override in `env`, else `adapters/<folder>` in this source tree.
fn adapter_dir(env: &str, folder: &str) -> PathBuf {
    dir_from_env(env, &format!("adapters/{folder}"))
}

/// The Babylon rigid-body loader's folder: the environment variable, else the vendored copy
/// beside the repository (`<repository>/../shared/vendor/<name>`), whether or not it exists.
pub fn babylon_loader_dir() -> PathBuf {
    let vendored = format!("../../shared/vendor/{BABYLON_LOADER_NAME}");
    dir_from_env(BABYLON_LOADER_ENV, &vendored)
}

/// A Node adapter: `src/main.js` in `dir` run by `node` ([`NODE_ENV`]), its dependencies installed
/// by `npm ci` (`package` is one of them).
fn node(name: &'static str, dir: PathBuf, package: &'static str) -> Launch {
    Launch {
        name,
        program: std::env::var_os(NODE_ENV).unwrap_or_else(|| "node".into()),
        entry: dir.join("src/main.js"),
        dir,
        install: Install::Npm { package },
        args: Vec::new(),
        source: None,
    }
}

/// How to start the named implementation (nothing is checked or started).
pub fn launch(name: &str) -> Option<Launch> {
    Some(match name {
        "three-vrm" => node(
            "three-vrm",
            adapter_dir(THREE_VRM_DIR_ENV, "three-vrm-node"),
            "@pixiv/three-vrm-node-constraint",
        ),
        "physx" => node(
            "physx",
            adapter_dir(PHYSX_DIR_ENV, "physx-node"),
            "physx-js-webidl",
        ),
        "jolt" => node(
            "jolt",
            adapter_dir(JOLT_DIR_ENV, "jolt-node"),
            "jolt-physics",
        ),
        "babylon" => {
            let loader = babylon_loader_dir();
            Launch {
                args: vec!["--loader".into(), loader.clone().into()],
                source: Some(SourceFolder {
                    dir: loader,
                    marker: "src/KHR_rigid_bodies.ts",
                    what: "babylon-gltf-rigid-body-loader sources",
                    env: BABYLON_LOADER_ENV,
                }),
                ..node(
                    "babylon",
                    adapter_dir(BABYLON_DIR_ENV, "babylon-havok"),
                    "@babylonjs/core",
                )
            }
        }
        "gltf-kun" => {
            let dir = adapter_dir(GLTF_KUN_DIR_ENV, "gltf-kun");
            Launch {
                name: "gltf-kun",
                program: std::env::var_os(CARGO_ENV).unwrap_or_else(|| "cargo".into()),
                entry: dir.join("Cargo.toml"),
                dir,
                install: Install::Cargo {
                    binary: "physics-cts-gltf-kun",
                },
                args: Vec::new(),
                source: None,
            }
        }
        _ => return None,
    })
}

/// Resolve a program the way `Command` will: a path is taken as it is, a bare name is looked
/// up in `path` (the value of `PATH`).
pub fn find_program(program: &OsStr, path: Option<&OsStr>) -> Option<PathBuf> {
    let p = Path::new(program);
    if p.components().count() > 1 {
        return p.is_file().then(|| p.to_path_buf());
    }
    std::env::split_paths(path?)
        .map(|d| d.join(p))
        .find(|c| c.is_file())
}

impl Launch {
    /// The runtime program's path, if it exists.
    pub fn runtime(&self) -> Option<PathBuf> {
        find_program(&self.program, std::env::var_os("PATH").as_deref())
    }

    /// Whether the runtime is present (see [`Launch::check`] for the whole check).
    pub fn runtime_present(&self) -> Result<(), Unavailable> {
        self.runtime()
            .map(|_| ())
            .ok_or_else(|| Unavailable::RuntimeMissing {
                implementation: self.name,
                program: self.program.to_string_lossy().into_owned(),
                install: self.install,
            })
    }

    /// Whether the source folder the adapter needs (if any) is present.
    pub fn source_present(&self) -> Result<(), Unavailable> {
        match &self.source {
            Some(s) if !s.dir.join(s.marker).is_file() => Err(Unavailable::SourceMissing {
                implementation: self.name,
                what: s.what,
                env: s.env,
                dir: s.dir.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// Whether the dependencies are installed (`node_modules/<package>/package.json`), or the
    /// Rust adapter's program built.
    pub fn installed(&self) -> bool {
        match self.install {
            Install::Npm { package } => self
                .dir
                .join("node_modules")
                .join(package)
                .join("package.json")
                .is_file(),
            Install::Cargo { .. } => self.binary().is_some_and(|b| b.is_file()),
        }
    }

    /// The Rust adapter's program (`dir/target/release/<binary>`); `None` for a Node one.
    pub fn binary(&self) -> Option<PathBuf> {
        match self.install {
            Install::Cargo { binary } => Some(
                self.dir
                    .join("target/release")
                    .join(format!("{binary}{}", std::env::consts::EXE_SUFFIX)),
            ),
            Install::Npm { .. } => None,
        }
    }

    /// Everything needed to start: runtime, entry script, installed dependencies.
    pub fn check(&self) -> Result<(), Unavailable> {
        self.runtime_present()?;
        if !self.entry.is_file() {
            return Err(Unavailable::AdapterMissing {
                implementation: self.name,
                entry: self.entry.clone(),
            });
        }
        self.source_present()?;
        if !self.installed() {
            return Err(match self.install {
                Install::Npm { package } => Unavailable::NotInstalled {
                    implementation: self.name,
                    package,
                    dir: self.dir.clone(),
                },
                Install::Cargo { .. } => Unavailable::NotBuilt {
                    implementation: self.name,
                    manifest: self.entry.clone(),
                },
            });
        }
        Ok(())
    }

    /// What `run` does before [`Launch::check`]: a Rust adapter is built (on first use with its
    /// progress on stderr, else a quiet no-op check that it is up to date, see
    /// [`Launch::build_with`]); a Node one is left as it is (the check says to run `npm ci`).
    pub fn prepare(&self) -> Result<(), Unavailable> {
        if !matches!(self.install, Install::Cargo { .. }) {
            return Ok(());
        }
        self.runtime_present()?;
        if !self.entry.is_file() {
            return Err(Unavailable::AdapterMissing {
                implementation: self.name,
                entry: self.entry.clone(),
            });
        }
        self.build_with(&self.program, true)
            .map_err(|message| Unavailable::BuildFailed {
                implementation: self.name,
                message,
            })
    }

    /// Install the dependencies if they are missing (`npm ci` in the folder; `CTS_NPM` names
    /// npm), under an exclusive file lock so concurrent test processes install once: the one
    /// holding the lock installs, the others wait and then find them installed. Used by the
    /// `cargo test` target only; the CLI says what to run instead of installing.
    /// A Rust adapter is built instead ([`Launch::build_with`]).
    pub fn ensure_installed(&self) -> Result<(), String> {
        if let Install::Cargo { .. } = self.install {
            return self.build_with(&self.program, false);
        }
        let npm = std::env::var_os("CTS_NPM").unwrap_or_else(|| "npm".into());
        self.install_with(&npm)
    }

    /// Build a Rust adapter with `cargo build --release --locked` (the lock file committed
    /// beside its `Cargo.toml`; its own `target/`, whatever `CARGO_TARGET_DIR` says), under the
    /// same exclusive file lock as `npm ci`, so concurrent first uses build once: the others
    /// wait, then find it built and up to date. When the program is missing (first use), what
    /// happens is said on stderr and, with `progress`, cargo's progress is shown there too;
    /// when it is present, cargo runs quietly and only rebuilds if the adapter's sources
    /// changed.
    pub fn build_with(&self, cargo: &OsStr, progress: bool) -> Result<(), String> {
        let _lock = self.lock()?;
        let first = !self.installed();
        let manifest = self.entry.display();
        let command = format!("cargo build --release --locked --manifest-path {manifest}");
        if first {
            eprintln!(
                "{}: building the adapter on first use ({command}); this takes a few minutes once",
                self.name
            );
        }
        let mut c = std::process::Command::new(cargo);
        c.args(["build", "--release", "--locked", "--manifest-path"])
            .arg(&self.entry)
            .arg("--target-dir")
            .arg(self.dir.join("target"))
            .env_remove("CARGO_BUILD_TARGET")
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null());
        if !first {
            c.arg("--quiet");
        }
        let out = if first && progress {
            c.stderr(std::process::Stdio::inherit())
                .status()
                .map(|status| (status, String::new()))
        } else {
            c.stderr(std::process::Stdio::piped())
                .output()
                .map(|o| (o.status, String::from_utf8_lossy(&o.stderr).into_owned()))
        };
        let (status, stderr) = out.map_err(|e| format!("starting `{command}`: {e}"))?;
        if !status.success() || !self.installed() {
            let tail: Vec<&str> = stderr.trim().lines().rev().take(20).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            return Err(format!(
                "`{command}` failed ({status}): {}",
                tail.join("\n")
            ));
        }
        if first {
            eprintln!("{}: adapter built", self.name);
        }
        Ok(())
    }

    /// [`Launch::ensure_installed`] with the given npm program.
    pub fn install_with(&self, npm: &OsStr) -> Result<(), String> {
        if self.installed() {
            return Ok(());
        }
        let _lock = self.lock()?;
        if self.installed() {
            return Ok(());
        }
        let out = std::process::Command::new(npm)
            .args(["ci", "--no-audit", "--no-fund", "--loglevel=error"])
            .current_dir(&self.dir)
            .stdin(std::process::Stdio::null())
            .output()
            .map_err(|e| format!("starting `npm ci` in {}: {e}", self.dir.display()))?;
        if !out.status.success() || !self.installed() {
            return Err(format!(
                "`npm ci` in {} failed ({}): {}",
                self.dir.display(),
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(())
    }

    /// The install (or build) lock, taken (held until dropped): one per adapter folder, in the
    /// temporary directory (not in the source tree, and not in `node_modules`, which `npm ci`
    /// deletes).
    fn lock(&self) -> Result<std::fs::File, String> {
        let tag = &crate::text::sha256_hex(self.dir.to_string_lossy().as_bytes())[..16];
        let what = match self.install {
            Install::Npm { .. } => "npm-ci",
            Install::Cargo { .. } => "build",
        };
        let path =
            std::env::temp_dir().join(format!("physics-cts-{what}-{}-{tag}.lock", self.name));
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(|e| format!("opening the lock {}: {e}", path.display()))?;
        lock.lock()
            .map_err(|e| format!("locking {}: {e}", path.display()))?;
        Ok(lock)
    }

    /// The stdio configuration: `program entry` (Node) or the built program (Rust), run in the
    /// adapter's folder.
    pub fn config(&self) -> StdioConfig {
        let (program, mut args): (OsString, Vec<OsString>) = match self.binary() {
            Some(binary) => (binary.into(), Vec::new()),
            None => (self.program.clone(), vec![self.entry.clone().into()]),
        };
        args.extend(self.args.iter().cloned());
        let mut c = StdioConfig::new(program, args);
        c.cwd = Some(self.dir.clone());
        c
    }

    /// A factory of stdio implementations, each its own process (started at its handshake).
    pub fn factory(&self, timeout_multiplier: f64) -> Factory {
        let config = self.config().scale_timeouts(timeout_multiplier);
        Arc::new(move || {
            Box::new(StdioImplementation::new(config.clone())) as Box<dyn Implementation + Send>
        })
    }
}

/// A checked factory for the named external implementation: `None` for an unknown name.
pub fn factory(name: &str, timeout_multiplier: f64) -> Option<Result<Factory, Unavailable>> {
    let l = launch(name)?;
    Some(
        l.prepare()
            .and_then(|()| l.check())
            .map(|()| l.factory(timeout_multiplier)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn physx_in(dir: &Path, program: &str) -> Launch {
        Launch {
            name: "physx",
            program: program.into(),
            dir: dir.to_path_buf(),
            entry: dir.join("src/main.js"),
            install: Install::Npm {
                package: "physx-js-webidl",
            },
            args: Vec::new(),
            source: None,
        }
    }

    #[test]
    fn a_missing_source_folder_is_named_with_its_variable() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
        std::fs::write(dir.path().join("src/main.js"), "").expect("write");
        let loader = dir.path().join("loader");
        let mut l = physx_in(dir.path(), "sh");
        l.source = Some(SourceFolder {
            dir: loader.clone(),
            marker: "src/KHR_rigid_bodies.ts",
            what: "loader sources",
            env: BABYLON_LOADER_ENV,
        });
        let e = l.check().expect_err("no loader");
        assert!(matches!(e, Unavailable::SourceMissing { .. }), "{e}");
        assert!(e.to_string().contains(BABYLON_LOADER_ENV), "{e}");
        std::fs::create_dir_all(loader.join("src")).expect("mkdir");
        std::fs::write(loader.join("src/KHR_rigid_bodies.ts"), "").expect("write");
        // Now only the install is missing.
        let e = l.check().expect_err("not installed");
        assert!(matches!(e, Unavailable::NotInstalled { .. }), "{e}");
    }

    #[test]
    fn babylon_passes_its_loader_folder() {
        let l = launch("babylon").expect("known");
        assert!(
            l.dir.ends_with("adapters/babylon-havok")
                || std::env::var_os(BABYLON_DIR_ENV).is_some()
        );
        let source = l.source.as_ref().expect("a loader folder");
        assert_eq!(
            l.args,
            vec![OsString::from("--loader"), source.dir.clone().into()]
        );
        let args = l.config().args;
        assert_eq!(args.len(), 3, "{args:?}");
    }

    #[test]
    fn names_are_known_and_not_bundled() {
        for n in names() {
            assert!(launch(n).is_some(), "{n}");
            assert!(crate::bundled::factory(n).is_none(), "{n} is both");
        }
        assert!(launch("nobody").is_none());
        assert!(factory("nobody", 1.0).is_none());
    }

    #[test]
    fn the_default_folder_is_the_source_tree_one() {
        // Unless overridden, the folder sits next to this crate's manifest.
        if std::env::var_os(PHYSX_DIR_ENV).is_none() {
            let l = launch("physx").expect("known");
            assert!(
                l.dir.ends_with("harness/adapters/physx-node"),
                "{:?}",
                l.dir
            );
            assert!(l.entry.is_file(), "{:?}", l.entry);
        }
    }

    #[test]
    fn jolt_lives_beside_physx_and_names_its_package() {
        let l = launch("jolt").expect("known");
        if std::env::var_os(JOLT_DIR_ENV).is_none() {
            assert!(l.dir.ends_with("harness/adapters/jolt-node"), "{:?}", l.dir);
            assert!(l.entry.is_file(), "{:?}", l.entry);
        }
        assert!(
            matches!(
                l.install,
                Install::Npm {
                    package: "jolt-physics"
                }
            ),
            "{:?}",
            l.install
        );
        assert_eq!(dir_env("jolt"), JOLT_DIR_ENV);
        assert!(l.args.is_empty() && l.source.is_none());
    }

    #[test]
    fn a_missing_runtime_is_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let l = physx_in(dir.path(), "/nonexistent/node-for-a-test");
        let e = l.check().expect_err("no runtime");
        assert!(matches!(e, Unavailable::RuntimeMissing { .. }), "{e}");
        assert!(e.to_string().contains("not found"), "{e}");
    }

    #[test]
    fn a_missing_install_says_npm_ci_in_the_folder() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
        std::fs::write(dir.path().join("src/main.js"), "").expect("write");
        // `sh` stands in for the runtime: only its presence is checked.
        let l = physx_in(dir.path(), "sh");
        let e = l.check().expect_err("not installed");
        assert!(matches!(e, Unavailable::NotInstalled { .. }), "{e}");
        let text = e.to_string();
        assert!(text.contains("npm ci"), "{text}");
        assert!(text.contains(&dir.path().display().to_string()), "{text}");
        // Installing the package's manifest is what the check looks for.
        let pkg = dir.path().join("node_modules/physx-js-webidl");
        std::fs::create_dir_all(&pkg).expect("mkdir");
        std::fs::write(pkg.join("package.json"), "{}").expect("write");
        assert_eq!(l.check(), Ok(()));
    }

    /// An executable shell script at `path`, written by a child `sh`: were this process to hold
    /// the file open for writing, a process another test forks meanwhile could inherit that
    /// descriptor, and running the script would fail with "Text file busy".
    fn script(path: &Path, body: &str) {
        use std::io::Write;
        let mut sh = std::process::Command::new("sh")
            .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
            .arg(path)
            .stdin(std::process::Stdio::piped())
            .spawn()
            .expect("sh");
        let mut stdin = sh.stdin.take().expect("stdin");
        stdin
            .write_all(format!("#!/bin/sh\n{body}").as_bytes())
            .expect("write");
        drop(stdin);
        assert!(
            sh.wait().expect("sh").success(),
            "writing {}",
            path.display()
        );
    }

    /// `run` on a copy of `l` in each of four threads at once; each must succeed.
    fn four_at_once(
        l: &Launch,
        run: impl Fn(&Launch) -> Result<(), String> + Clone + Send + 'static,
    ) {
        let joins: Vec<_> = (0..4)
            .map(|_| {
                let (l, run) = (l.clone(), run.clone());
                std::thread::spawn(move || run(&l))
            })
            .collect();
        for j in joins {
            assert_eq!(j.join().expect("thread"), Ok(()));
        }
    }

    #[test]
    fn concurrent_installs_run_npm_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        // A fake npm: counts its runs, takes a moment, then installs the package manifest.
        let npm = dir.path().join("fake-npm");
        script(
            &npm,
            "echo run >> runs\nsleep 0.3\nmkdir -p node_modules/physx-js-webidl\necho '{}' > node_modules/physx-js-webidl/package.json\n",
        );
        let l = physx_in(dir.path(), "sh");
        four_at_once(&l, move |l| l.install_with(npm.as_os_str()));
        let runs = std::fs::read_to_string(dir.path().join("runs")).expect("runs");
        assert_eq!(runs.lines().count(), 1, "npm ran {runs:?}");
        assert!(l.installed());
    }

    #[test]
    fn a_failing_install_is_an_error_with_its_output() {
        let dir = tempfile::tempdir().expect("tempdir");
        let npm = dir.path().join("failing-npm");
        script(&npm, "echo 'registry unreachable' >&2\nexit 1\n");
        let e = physx_in(dir.path(), "sh")
            .install_with(npm.as_os_str())
            .expect_err("fails");
        assert!(e.contains("registry unreachable"), "{e}");
        assert!(e.contains("npm ci"), "{e}");
    }

    /// A Rust adapter's launch in `dir`, built by `cargo`.
    fn cargo_in(dir: &Path, cargo: &str) -> Launch {
        Launch {
            name: "gltf-kun",
            program: cargo.into(),
            dir: dir.to_path_buf(),
            entry: dir.join("Cargo.toml"),
            install: Install::Cargo { binary: "adapter" },
            args: Vec::new(),
            source: None,
        }
    }

    #[test]
    fn gltf_kun_runs_its_built_program() {
        let l = launch("gltf-kun").expect("known");
        if std::env::var_os(GLTF_KUN_DIR_ENV).is_none() {
            assert!(l.dir.ends_with("harness/adapters/gltf-kun"), "{:?}", l.dir);
            assert!(l.entry.is_file(), "{:?}", l.entry);
        }
        let binary = l.binary().expect("a Rust adapter");
        assert!(
            binary.starts_with(l.dir.join("target/release")),
            "{binary:?}"
        );
        let c = l.config();
        assert_eq!(c.program, OsString::from(binary));
        assert!(c.args.is_empty(), "{:?}", c.args);
        assert_eq!(dir_env("gltf-kun"), GLTF_KUN_DIR_ENV);
        // The Node adapters keep `node entry`.
        let physx = launch("physx").expect("known");
        assert_eq!(physx.binary(), None);
        assert_eq!(
            physx.config().args,
            vec![OsString::from(physx.entry.clone())]
        );
    }

    #[test]
    fn without_cargo_a_rust_adapter_is_unavailable_and_says_so() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("Cargo.toml"), "").expect("write");
        let l = cargo_in(dir.path(), "/nonexistent/cargo-for-a-test");
        for e in [
            l.prepare().expect_err("no cargo"),
            l.check().expect_err("no cargo"),
        ] {
            assert!(matches!(e, Unavailable::RuntimeMissing { .. }), "{e}");
            let text = e.to_string();
            assert!(text.contains("cargo"), "{text}");
            assert!(text.contains(CARGO_ENV), "{text}");
            assert!(!text.contains("Node"), "{text}");
        }
        // With cargo but nothing built, the check says how to build it.
        let e = cargo_in(dir.path(), "sh").check().expect_err("not built");
        assert!(matches!(e, Unavailable::NotBuilt { .. }), "{e}");
        assert!(
            e.to_string().contains("cargo build --release --locked"),
            "{e}"
        );
        // The Node message is the one it was.
        let e = physx_in(dir.path(), "/nonexistent/node-for-a-test")
            .check()
            .expect_err("no node");
        assert_eq!(
            e.to_string(),
            format!(
                "physx: `/nonexistent/node-for-a-test` not found (install Node.js >= 20, or set {NODE_ENV} to its path)"
            )
        );
    }

    #[test]
    fn concurrent_first_uses_build_one_at_a_time_and_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("Cargo.toml"), "").expect("write");
        // A fake cargo: notes each run and whether it was quiet, fails if another run is under
        // way (mkdir is atomic), takes a moment, then "builds" the program.
        let cargo = dir.path().join("fake-cargo");
        let d = dir.path().display();
        script(
            &cargo,
            &format!(
                "cd {d}\nmkdir running || {{ echo overlap >> runs; exit 1; }}\ncase \"$*\" in *--quiet*) echo quiet >> runs;; *) echo build >> runs;; esac\nsleep 0.3\nmkdir -p target/release && touch target/release/adapter\nrmdir running\n"
            ),
        );
        let l = cargo_in(dir.path(), "sh");
        four_at_once(&l, move |l| l.build_with(cargo.as_os_str(), false));
        let runs = std::fs::read_to_string(dir.path().join("runs")).expect("runs");
        let runs: Vec<&str> = runs.lines().collect();
        assert!(!runs.contains(&"overlap"), "{runs:?}");
        // One build; the others only checked, quietly, that it is up to date.
        assert_eq!(
            runs.iter().filter(|r| **r == "build").count(),
            1,
            "{runs:?}"
        );
        assert_eq!(runs.len(), 4, "{runs:?}");
        assert!(l.installed());
    }

    #[test]
    fn a_failing_build_is_an_error_with_its_output() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("Cargo.toml"), "").expect("write");
        let cargo = dir.path().join("failing-cargo");
        script(
            &cargo,
            "echo 'error: failed to select a version' >&2\nexit 101\n",
        );
        let e = cargo_in(dir.path(), "sh")
            .build_with(cargo.as_os_str(), false)
            .expect_err("fails");
        assert!(e.contains("failed to select a version"), "{e}");
        assert!(e.contains("cargo build --release --locked"), "{e}");
    }

    #[test]
    fn a_missing_entry_is_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let e = physx_in(dir.path(), "sh").check().expect_err("no entry");
        assert!(matches!(e, Unavailable::AdapterMissing { .. }), "{e}");
        assert!(e.to_string().contains(PHYSX_DIR_ENV), "{e}");
        let mut l = physx_in(dir.path(), "sh");
        l.name = "babylon";
        let e = l.check().expect_err("no entry");
        assert!(e.to_string().contains(BABYLON_DIR_ENV), "{e}");
    }

    #[test]
    fn programs_resolve_by_path_or_by_name() {
        let dir = tempfile::tempdir().expect("tempdir");
        let exe = dir.path().join("fake-node");
        std::fs::write(&exe, "").expect("write");
        let path = std::env::join_paths([dir.path()]).expect("join");
        assert_eq!(
            find_program(OsStr::new("fake-node"), Some(&path)),
            Some(exe.clone())
        );
        assert_eq!(find_program(OsStr::new("other"), Some(&path)), None);
        assert_eq!(find_program(OsStr::new("fake-node"), None), None);
        assert_eq!(find_program(exe.as_os_str(), None), Some(exe.clone()));
        assert_eq!(
            find_program(dir.path().join("missing").as_os_str(), None),
            None
        );
    }
}
