//! The core's folders follow the stage map in `lib.rs`, and no file reaches forward: a
//! stage imports only from itself and the stages before it, by module path
//! (`crate::water::…`) or by a name the crate root re-exports (`crate::World`). Every line
//! is held to that but those of `mod tests` blocks, which may use the test fixture.

use std::collections::BTreeMap;
use std::path::Path;

/// The stages in the order the data flows; shared helpers first, the test fixture last.
const STAGES: &[&str] = &[
    "math",
    "cancel",
    "stopwatch",
    "settings",
    "ground",
    "drainage",
    "erosion",
    "carve",
    "water",
    "floating",
    "life",
    "pipeline",
    "output",
    "checks",
    "testkit",
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

/// Each name `lib.rs` re-exports (`pub use stage::…::{Name, other as Alias}`), with the
/// module it comes from; names from outside the crate (`glam::DVec3`) are left out.
fn re_exports(lib: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for statement in lib.split("pub use ").skip(1) {
        let statement = statement.split(';').next().unwrap_or_default();
        let top = statement.split("::").next().unwrap_or_default().trim().to_owned();
        if stage_of(&top).is_none() {
            continue;
        }
        let list = statement.rsplit("::").next().unwrap_or_default();
        for item in list.trim_matches(|c: char| c == '{' || c == '}' || c.is_whitespace()).split(',') {
            let name = item.split(" as ").last().unwrap_or_default().trim();
            if !name.is_empty() {
                names.insert(name.to_owned(), top.clone());
            }
        }
    }
    names
}

/// `text` with every `mod tests { … }` block (and the attributes before it) blanked out,
/// line numbers kept.
fn without_test_modules(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth: Option<i64> = None;
    for line in text.lines() {
        let code = line.trim_start();
        if depth.is_none() && (code.starts_with("mod tests") || code.starts_with("pub mod tests")) {
            depth = Some(0);
        }
        if let Some(d) = depth.as_mut() {
            *d += line.matches('{').count() as i64 - line.matches('}').count() as i64;
            let closed = *d <= 0 && line.contains('}');
            if closed {
                depth = None;
            }
            out.push('\n');
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Every place in `text` (a file of stage `own`, shown as `file`) that names a later stage
/// or an unknown module through `crate::`, one message each.
fn reaches_forward(file: &str, own: usize, text: &str, exported: &BTreeMap<String, String>) -> Vec<String> {
    let mut problems = Vec::new();
    for (n, line) in without_test_modules(text).lines().enumerate() {
        for (at, _) in line.match_indices("crate::") {
            let name: String =
                line[at + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            // A name the crate root re-exports counts as the stage it comes from.
            let module = exported.get(&name).cloned().unwrap_or_else(|| name.clone());
            match stage_of(&module) {
                Some(used) if used > own => problems.push(format!(
                    "{file}:{}: stage '{}' reaches the later stage '{module}' ('crate::{name}')",
                    n + 1,
                    STAGES[own]
                )),
                None => problems.push(format!("{file}:{}: unknown module '{name}'", n + 1)),
                _ => {}
            }
        }
    }
    problems
}

#[test]
fn no_file_imports_from_a_later_stage() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files.sort();
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap_or_default();
    let exported = re_exports(&lib);
    assert!(exported.len() > 100, "read only {} re-exported names from lib.rs", exported.len());
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
        problems.extend(reaches_forward(&rel.display().to_string(), own, &text, &exported));
    }
    assert!(files.len() > 20, "found only {} source files under {}", files.len(), src.display());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The guard itself: a re-exported type of a later stage is caught like a module path, in
/// code after a `#[cfg(test)]` item too; only a `mod tests` block may reach the fixture.
#[test]
fn the_guard_sees_types_and_code_after_test_items() {
    let lib = "pub use water::world::World;\npub use drainage::{solve, Drainage as D};\npub use glam::DVec3;";
    let exported = re_exports(lib);
    assert_eq!(exported.get("World").map(String::as_str), Some("water"));
    assert_eq!(exported.get("D").map(String::as_str), Some("drainage"));
    assert_eq!(exported.get("solve").map(String::as_str), Some("drainage"));
    assert!(!exported.contains_key("DVec3"));
    let drainage = stage_of("drainage").expect("a stage");
    let text = "use crate::math::sphere;\n#[cfg(test)]\nfn helper() {}\n\nfn f(w: &crate::World) {}\n\n\
                #[cfg(test)]\nmod tests {\n    use crate::testkit;\n    fn g() { if true { } }\n}\n\
                fn after() -> crate::water::Water {}\n";
    let found = reaches_forward("drainage/x.rs", drainage, text, &exported);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(found[0]
        .starts_with("drainage/x.rs:5: stage 'drainage' reaches the later stage 'water' ('crate::World')"));
    assert!(found[1].starts_with("drainage/x.rs:12:"), "{found:?}");
}
