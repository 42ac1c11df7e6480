//! `physics-cts validate`: read files (or folders of them) with the reference and report every
//! issue, compiler style (`text`) or as one JSON document (`json`).
//!
//! Exit codes: 0 no file has an error, 1 some file has an error, 2 a usage or I/O problem (a
//! missing path, an unreadable file or folder). I/O problems are reported on stderr and the other
//! files are still validated, so one bad argument does not hide the rest.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Mutex, mpsc};

use reference::issue::{Issue, Severity};
use reference::profile::Profile;
use serde::Serialize;

use crate::exit::USAGE as EXIT_USAGE;

/// Arguments of `physics-cts validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// Read every file under this profile instead of the detected one
    /// (khr-2024-draft, omi-2023, vrmc-constraints-draft).
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<Profile>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ValidationFormat::Text)]
    pub format: ValidationFormat,
    /// Files or folders (searched recursively for .gltf and .glb).
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
}

/// How `validate` prints its findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ValidationFormat {
    /// One line per issue (`path: severity[CODE] pointer: message`), then a summary line.
    Text,
    /// One JSON document: `{"files": [...], "summary": {...}}`.
    Json,
}

/// The validation of one file.
#[derive(Debug, Serialize)]
pub struct FileReport {
    pub path: String,
    pub profile: Option<Profile>,
    pub issues: Vec<Issue>,
}

/// Counts over every validated file.
#[derive(Debug, Default, PartialEq, Eq, Serialize)]
pub struct ValidationSummary {
    pub files: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub files_with_errors: usize,
}

impl ValidationSummary {
    fn of(files: &[FileReport]) -> ValidationSummary {
        let mut s = ValidationSummary {
            files: files.len(),
            ..ValidationSummary::default()
        };
        for file in files {
            let mut has_error = false;
            for issue in &file.issues {
                match issue.severity {
                    Severity::Error => {
                        s.errors += 1;
                        has_error = true;
                    }
                    Severity::Warning => s.warnings += 1,
                    Severity::Info => s.infos += 1,
                }
            }
            s.files_with_errors += usize::from(has_error);
        }
        s
    }
}

#[derive(Debug, Serialize)]
struct JsonReport<'a> {
    files: &'a [FileReport],
    summary: &'a ValidationSummary,
}

pub fn run(args: ValidateArgs) -> anyhow::Result<ExitCode> {
    let mut io_problem = false;
    let (files, outcomes) = read_all(args.profile, |found| {
        for path in &args.paths {
            if let Err(e) = collect(path, found) {
                eprintln!("physics-cts: error: {e}");
                io_problem = true;
            }
        }
    });

    let mut reports = Vec::with_capacity(files.len());
    for (file, result) in files.iter().zip(outcomes) {
        match result {
            Ok((profile, issues)) => reports.push(FileReport {
                path: file.display().to_string(),
                profile,
                issues,
            }),
            Err(e) => {
                eprintln!("physics-cts: error: {e}");
                io_problem = true;
            }
        }
    }

    let summary = ValidationSummary::of(&reports);
    // Stdout is line-buffered: unbuffered, the pretty JSON would be one write(2) per line.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match args.format {
        ValidationFormat::Text => write_text(&mut out, &reports, &summary)?,
        ValidationFormat::Json => {
            let report = JsonReport {
                files: &reports,
                summary: &summary,
            };
            serde_json::to_writer_pretty(&mut out, &report)?;
            writeln!(out)?;
        }
    }
    out.flush()?;

    Ok(if io_problem {
        ExitCode::from(EXIT_USAGE)
    } else if summary.files_with_errors > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// What `validate` keeps of one file's reading: its profile and issues.
type Outcome = Result<(Option<Profile>, Vec<Issue>), reference::ReadError>;

/// Read one file, keeping only what is reported. The canonical scene is dropped here, on the
/// thread that built it, while its memory is still in that thread's cache and heap: kept until
/// the end, every scene of the run would be alive at once (fresh pages, each a page fault).
fn read_one(file: &Path, forced: Option<Profile>) -> Outcome {
    reference::read_path(file, forced).map(|reading| (reading.profile, reading.issues))
}

/// The files `search` finds (each once, where first found: a file named directly and through
/// its folder is read once) and their outcomes, read on as many threads as there are cores
/// while the search goes on (the folder walk is a few percent of a run). The outcomes keep the
/// order of the files, so the output does not depend on scheduling.
fn read_all(
    forced: Option<Profile>,
    search: impl FnOnce(&mut dyn FnMut(PathBuf)),
) -> (Vec<PathBuf>, Vec<Outcome>) {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let mut files = Vec::new();
    let mut seen = HashSet::new();
    if threads <= 1 {
        search(&mut |file| {
            if seen.insert(file.clone()) {
                files.push(file);
            }
        });
        let outcomes = files.iter().map(|f| read_one(f, forced)).collect();
        return (files, outcomes);
    }
    let (send, receive) = mpsc::channel::<(usize, PathBuf)>();
    let receive = Mutex::new(receive);
    let mut results: Vec<(usize, Outcome)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut done = Vec::new();
                    // The lock is released before reading: it only hands out the next file.
                    while let Ok(Ok((i, file))) = receive.lock().map(|r| r.recv()) {
                        done.push((i, read_one(&file, forced)));
                    }
                    done
                })
            })
            .collect();
        search(&mut |file| {
            if seen.insert(file.clone()) {
                // A worker gone (it panicked) is reported when joined.
                let _ = send.send((files.len(), file.clone()));
                files.push(file);
            }
        });
        drop(send);
        workers
            .into_iter()
            .flat_map(|w| match w.join() {
                Ok(done) => done,
                // A reader panic is a bug; surface it rather than drop files silently.
                Err(panic) => std::panic::resume_unwind(panic),
            })
            .collect()
    });
    // Each file's outcome at its index; one missing would shift every later report onto the
    // wrong file, so it stops the run instead (only a reader thread that died can cause it,
    // and its panic is raised above).
    let mut slots: Vec<Option<Outcome>> = files.iter().map(|_| None).collect();
    for (i, outcome) in results.drain(..) {
        if let Some(slot) = slots.get_mut(i) {
            *slot = Some(outcome);
        }
    }
    let outcomes = slots
        .into_iter()
        .map(|slot| slot.unwrap_or_else(|| panic!("a file was handed out and never read")))
        .collect();
    (files, outcomes)
}

/// Compiler-style lines. An issue on the whole document (empty pointer) has no pointer column.
fn write_text(
    out: &mut impl Write,
    reports: &[FileReport],
    summary: &ValidationSummary,
) -> std::io::Result<()> {
    for file in reports {
        for issue in &file.issues {
            let (path, severity, code) = (&file.path, issue.severity, issue.code);
            if issue.pointer.is_empty() {
                writeln!(out, "{path}: {severity}[{code}]: {}", issue.message)?;
            } else {
                writeln!(
                    out,
                    "{path}: {severity}[{code}] {}: {}",
                    issue.pointer, issue.message
                )?;
            }
        }
    }
    // `1 file`, `2 files`.
    let count = |n: usize, one: &str| format!("{n} {one}{}", if n == 1 { "" } else { "s" });
    writeln!(
        out,
        "{}, {}, {}, {} ({} with errors)",
        count(summary.files, "file"),
        count(summary.errors, "error"),
        count(summary.warnings, "warning"),
        count(summary.infos, "info"),
        count(summary.files_with_errors, "file"),
    )
}

/// A path named on the command line: a file is validated whatever its extension; a folder is
/// searched recursively for `.gltf` and `.glb` files, in sorted order.
fn collect(path: &Path, found: &mut dyn FnMut(PathBuf)) -> Result<(), String> {
    let meta =
        std::fs::metadata(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    if meta.is_dir() {
        let mut count = 0;
        walk(path, &mut |file| {
            count += 1;
            found(file);
        })?;
        // A folder without glTF validates nothing: not a success (a typo'd or wrong folder
        // would otherwise pass).
        if count == 0 {
            return Err(format!(
                "{}: no .gltf or .glb file in this folder",
                path.display()
            ));
        }
        Ok(())
    } else {
        found(path.to_path_buf());
        Ok(())
    }
}

/// Recursive folder search. Symbolic links to files are followed; links to folders are not
/// (they could form a loop).
fn walk(dir: &Path, found: &mut dyn FnMut(PathBuf)) -> Result<(), String> {
    let err = |e: std::io::Error| format!("cannot read folder {}: {e}", dir.display());
    let mut entries = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(err)? {
        let entry = entry.map_err(err)?;
        let kind = entry.file_type().map_err(err)?;
        let path = entry.path();
        let is_file = if kind.is_symlink() {
            std::fs::metadata(&path).is_ok_and(|m| m.is_file())
        } else {
            kind.is_file()
        };
        if kind.is_dir() || (is_file && is_gltf(&path)) {
            entries.push((path, kind.is_dir()));
        }
    }
    entries.sort();
    for (path, is_dir) in entries {
        if is_dir {
            walk(&path, found)?;
        } else {
            found(path);
        }
    }
    Ok(())
}

fn is_gltf(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("gltf") || e.eq_ignore_ascii_case("glb"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use reference::issue::Code;

    fn report(codes: &[Code]) -> FileReport {
        FileReport {
            path: "x.gltf".into(),
            profile: None,
            issues: codes.iter().map(|c| Issue::new(*c, "/a")).collect(),
        }
    }

    #[test]
    fn summary_counts_each_severity_and_files_with_errors() {
        // 3 files: [error, warning, info], [info], [error, error] -> 3 errors, 1 warning,
        // 2 infos, 2 files with errors.
        let reports = [
            report(&[Code::JsonSyntax, Code::EnumUnknown, Code::ProfileNone]),
            report(&[Code::ProfileNone]),
            report(&[Code::GltfIndex, Code::GltfValue]),
        ];
        assert_eq!(
            ValidationSummary::of(&reports),
            ValidationSummary {
                files: 3,
                errors: 3,
                warnings: 1,
                infos: 2,
                files_with_errors: 2
            }
        );
    }

    #[test]
    fn text_lines_omit_an_empty_pointer() {
        let reports = [FileReport {
            path: "a.gltf".into(),
            profile: None,
            issues: vec![
                Issue::new(Code::ProfileNone, ""),
                Issue::new(Code::GltfIndex, "/nodes/0/mesh").arg("index", 7),
            ],
        }];
        let mut out = Vec::new();
        write_text(&mut out, &reports, &ValidationSummary::of(&reports)).expect("write to a Vec");
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            "a.gltf: info[PROFILE_NONE]: no physics or constraint extension found\n\
             a.gltf: error[GLTF_INDEX] /nodes/0/mesh: index 7 is out of range\n\
             1 file, 1 error, 0 warnings, 1 info (1 file with errors)\n"
        );
    }

    #[test]
    fn only_gltf_and_glb_extensions_are_collected_from_folders() {
        assert!(is_gltf(Path::new("a/b.gltf")));
        assert!(is_gltf(Path::new("b.GLB")));
        assert!(!is_gltf(Path::new("b.bin")));
        assert!(!is_gltf(Path::new("gltf")));
    }
}
