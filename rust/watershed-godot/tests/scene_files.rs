//! Scene files are code too: every `.tscn` in the repository writes a node reference the
//! way the Godot editor does. A property assigned `NodePath(...)` in a node section must be
//! listed in that node header's `node_paths=PackedStringArray(...)`; without it the loader
//! hands the setter the path itself and gdext refuses it ("cannot convert from NODE_PATH
//! to OBJECT"), so the scene never wires up.

use std::path::{Path, PathBuf};

/// Every `.tscn` under `dir`, skipping engine caches and symlinked folders (the demo links
/// the add-on; it is checked where it lives).
fn scenes(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() && !name.starts_with('.') && name != "target" {
            scenes(&path, out);
        } else if kind.is_file() && name.ends_with(".tscn") {
            out.push(path);
        }
    }
}

/// The names inside a node header's `node_paths=PackedStringArray("a", "b")`.
fn declared_node_paths(header: &str) -> Vec<String> {
    let Some(start) = header.find("node_paths=PackedStringArray(") else { return Vec::new() };
    let rest = &header[start + "node_paths=PackedStringArray(".len()..];
    let list = rest.split(')').next().unwrap_or("");
    list.split(',').map(|s| s.trim().trim_matches('"').to_string()).filter(|s| !s.is_empty()).collect()
}

/// One line per property that assigns a `NodePath(` without being declared in its node
/// header: "file:line: node 'Name' property 'prop'".
fn undeclared_node_paths(file: &str, text: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut header: Option<(String, Vec<String>)> = None;
    for (number, line) in text.lines().enumerate() {
        if line.starts_with('[') {
            header = line.starts_with("[node ").then(|| {
                let name = line.split("name=\"").nth(1).and_then(|s| s.split('"').next()).unwrap_or("?");
                (name.to_string(), declared_node_paths(line))
            });
            continue;
        }
        let Some((node, declared)) = header.as_ref() else { continue };
        let Some((property, value)) = line.split_once(" = ") else { continue };
        if value.starts_with("NodePath(") && !declared.iter().any(|d| d == property) {
            problems.push(format!("{file}:{}: node '{node}' property '{property}'", number + 1));
        }
    }
    problems
}

#[test]
fn every_node_reference_is_declared_in_node_paths() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut files = Vec::new();
    scenes(&root, &mut files);
    assert!(files.iter().any(|f| f.ends_with("demo_project/main.tscn")), "found {files:?}");
    let problems: Vec<String> = files
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).unwrap_or_default();
            undeclared_node_paths(&f.strip_prefix(&root).unwrap_or(f).display().to_string(), &text)
        })
        .collect();
    assert!(problems.is_empty(), "NodePath without node_paths= in its node header:\n{}", problems.join("\n"));
}

#[test]
fn the_check_catches_a_reference_without_node_paths() {
    let scene = "[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node3D\"]\n\n\
        [node name=\"DrainageSolver\" type=\"DrainageSolver\" parent=\".\"]\n\
        planet = NodePath(\"../PlanetHeight\")\n\n\
        [node name=\"Walker\" type=\"Node3D\" parent=\".\" node_paths=PackedStringArray(\"planet\")]\n\
        planet = NodePath(\"../PlanetHeight\")\n\
        water_table = NodePath(\"../WaterTable\")\n";
    assert_eq!(
        undeclared_node_paths("x.tscn", scene),
        vec![
            "x.tscn:6: node 'DrainageSolver' property 'planet'".to_string(),
            "x.tscn:10: node 'Walker' property 'water_table'".to_string(),
        ]
    );
}
