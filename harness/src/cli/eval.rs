//! `physics-cts eval`: print the reference's expected interpretation of one file as JSON.
//!
//! Exit codes: 0 printed; 1 the file has validation errors (printed to stderr) or its
//! constraints cannot be evaluated; 2 the file or the poses cannot be read. Errors that say
//! only that buffer data nothing physical reads cannot be read (a mesh `.bin` left out) do not
//! stop the evaluation: what reads the data has an error of its own.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use reference::issue::Severity;
use reference::poses::Poses;
use reference::profile::Profile;

use crate::protocol::finite;

/// Output formats of `eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalFormat {
    Json,
}

/// Arguments of `physics-cts eval`.
#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    /// The glTF file (.gltf or .glb).
    pub file: PathBuf,
    /// Local TRS overrides: {"nodes": {"<index>": {"translation", "rotation", "scale"}}}.
    #[arg(long, value_name = "POSES.json")]
    pub poses: Option<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: EvalFormat,
    /// Read the file under this profile instead of the detected one.
    #[arg(long)]
    pub profile: Option<Profile>,
}

pub fn run(args: EvalArgs) -> anyhow::Result<ExitCode> {
    let reading = reference::read_path(&args.file, args.profile)?;
    let file = args.file.display();
    for issue in &reading.issues {
        if issue.severity != Severity::Info {
            eprintln!(
                "{file}: {} {} at {:?}: {}",
                issue.severity, issue.code, issue.pointer, issue.message
            );
        }
    }
    // Errors that say only that some buffer data cannot be read do not stop the evaluation:
    // a collider, trigger or constraint that reads such data has an error of its own.
    let blocking = reading
        .issues
        .iter()
        .any(|i| i.severity == Severity::Error && !reference::document::only_unread_data(i));
    if blocking {
        eprintln!("{file}: not evaluated: the file has validation errors");
        return Ok(ExitCode::from(1));
    }
    if reading.has_errors() {
        eprintln!(
            "{file}: evaluated: its errors concern buffer data that no collider, trigger or constraint reads"
        );
    }
    let Some(scene) = reading.scene else {
        anyhow::bail!(
            "{file}: no physics or constraint extension found: nothing to evaluate (try --profile)"
        );
    };
    let poses = match &args.poses {
        None => Poses::default(),
        Some(path) => {
            // Read as documents are: a FIFO or a device would block or never end.
            let bytes = crate::case::read_file(path)
                .with_context(|| format!("cannot read poses {}", path.display()))?;
            let text = String::from_utf8(bytes)
                .with_context(|| format!("cannot read poses {}", path.display()))?;
            Poses::from_json(&text, scene.nodes.len())
                .with_context(|| format!("bad poses {}", path.display()))?
        }
    };
    let expectation = match reference::expect::evaluate(&scene, &poses) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{file}: constraints cannot be evaluated: {e}");
            return Ok(ExitCode::from(1));
        }
    };
    match args.format {
        EvalFormat::Json => {
            let mut out = std::io::stdout().lock();
            // An infinite metric is not "not given" (null): see `finite`.
            serde_json::to_writer_pretty(&mut out, &finite::Marked(&expectation))?;
            writeln!(out)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
