//! `physics-cts validate`: to be written by the validate-CLI helper.

use std::process::ExitCode;

/// Arguments of `physics-cts validate`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Files or folders (searched recursively for .gltf and .glb).
    #[arg(required = true)]
    pub paths: Vec<std::path::PathBuf>,
}

pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("not implemented yet")
}
