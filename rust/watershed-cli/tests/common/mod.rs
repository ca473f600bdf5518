//! Shared by the CLI's integration tests: run the binary from the repository root, and a
//! scratch folder per test.

use std::path::PathBuf;
use std::process::{Command, Output};

/// Runs `watershed` with `args` from the repository root.
pub fn watershed(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_watershed"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("run watershed")
}

/// A fresh folder under the system's temp folder, unique to this process and `name`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("watershed-cli-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}
