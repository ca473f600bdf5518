//! The core's folders follow the stage map in `lib.rs`, and no file reaches forward: a
//! stage imports only from itself and the stages before it (tests inside a file may use
//! the test fixture).

use std::path::Path;

/// The stages in the order the data flows; shared helpers first, the test fixture last.
const STAGES: &[&str] = &[
    "math", "cancel", "settings", "ground", "drainage", "erosion", "carve", "water", "life", "output",
    "checks", "testkit",
];

fn stage_of(top: &str) -> Option<usize> {
    STAGES.iter().position(|s| *s == top)
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_file_imports_from_a_later_stage() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let mut problems = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&src).unwrap_or(file);
        let top = rel.components().next().and_then(|c| c.as_os_str().to_str()).unwrap_or("");
        let top = top.trim_end_matches(".rs");
        if top == "lib" {
            continue;
        }
        let Some(own) = stage_of(top) else {
            problems.push(format!("{}: not in a stage folder of lib.rs's map", rel.display()));
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let body = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (n, line) in body.lines().enumerate() {
            for (at, _) in line.match_indices("crate::") {
                let name: String =
                    line[at + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if name.starts_with(|c: char| c.is_ascii_uppercase()) {
                    continue; // a doc link to a type lib.rs re-exports
                }
                match stage_of(&name) {
                    Some(used) if used > own => problems.push(format!(
                        "{}:{}: stage '{top}' imports the later stage '{name}'",
                        rel.display(),
                        n + 1
                    )),
                    None => problems.push(format!("{}:{}: unknown module '{name}'", rel.display(), n + 1)),
                    _ => {}
                }
            }
        }
    }
    assert!(files.len() > 20, "found only {} source files under {}", files.len(), src.display());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
