//! physics-cts adapter for gltf_kun: the stdio protocol on stdin/stdout (harness/PROTOCOL.md),
//! logs on stderr. Usage: physics-cts-gltf-kun

use std::io::{BufRead, Write};

fn main() -> std::process::ExitCode {
    let mut adapter = physics_cts_gltf_kun::protocol::Adapter::default();
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("physics-cts-gltf-kun: reading stdin: {e}");
                return std::process::ExitCode::FAILURE;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let (answer, stop) = adapter.answer(&line);
        if writeln!(stdout, "{answer}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            return std::process::ExitCode::FAILURE;
        }
        if stop {
            break;
        }
    }
    std::process::ExitCode::SUCCESS
}
