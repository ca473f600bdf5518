//! One schema per stats record: the Godot dictionaries `DrainageSolver.stats()`,
//! `WaterTable.water_stats()` and `HeightmapWatershed.get_stats()` are the serde form of the
//! core's `DrainageStats`, `WaterStats` and `HeightmapStats`, so every key a script reads from
//! them (in the repository's `.gd` files and the Markdown files' GDScript examples), every key
//! their `#[func]` doc comments list and every key the add-on README's list names must be a
//! field of the record — read from `serde_json::to_value(Record::default())`, so a misspelt
//! key in a script or a renamed field fails here, not in a probe.
//!
//! A dictionary is followed where a script holds it: a `var` assigned from the method
//! (`var stats := solver.stats()`), a function called with the method's result
//! (`_on_solved(solver.stats())`), and a handler of the signal that carries it
//! (`solver.solved.connect(_on_solved)` or an inline `func(stats): …`) when the emitter is
//! declared of the class (`var solver := DrainageSolver.new()`, `var _solver: DrainageSolver`).
//! Keys are read as `name["key"]`, `name.get("key")`, `name.has("key")` and `name.key`.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use watershed::{CarveStats, DrainageStats, HeightmapStats, WaterStats};

/// One dictionary the Godot classes hand out.
struct Dict {
    /// The core record it is the serde form of.
    record: &'static str,
    /// The record's serde form, default values.
    value: fn() -> Value,
    /// The Godot class that hands it out.
    class: &'static str,
    /// The method that returns it.
    method: &'static str,
    /// The class's signal that carries it as its one argument.
    signal: Option<&'static str>,
    /// Keys the dictionary holds beside the record's fields.
    extra: &'static [&'static str],
}

const DICTS: &[Dict] = &[
    Dict {
        record: "DrainageStats",
        value: || serde_json::to_value(DrainageStats::default()).expect("serializes"),
        class: "DrainageSolver",
        method: "stats",
        signal: Some("solved"),
        extra: &[],
    },
    Dict {
        record: "WaterStats",
        value: || serde_json::to_value(WaterStats::default()).expect("serializes"),
        class: "WaterTable",
        method: "water_stats",
        signal: None,
        extra: &[],
    },
    Dict {
        record: "HeightmapStats",
        value: || serde_json::to_value(HeightmapStats::default()).expect("serializes"),
        class: "HeightmapWatershed",
        method: "get_stats",
        signal: Some("finished"),
        // Wall-clock milliseconds by stage: not part of any result, so not the record's.
        extra: &["timings_ms"],
    },
];

impl Dict {
    /// The record's field names.
    fn fields(&self) -> BTreeSet<String> {
        match (self.value)() {
            Value::Object(fields) => fields.keys().cloned().collect(),
            other => panic!("{} serializes to {other}, not an object", self.record),
        }
    }

    /// Every key the dictionary holds.
    fn keys(&self) -> BTreeSet<String> {
        let mut keys = self.fields();
        keys.extend(self.extra.iter().map(|k| (*k).to_owned()));
        keys
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Files under `dir` ending in `ext`, leaving out hidden folders, build output and symbolic
/// links (`demo_project/addons` and `demo_project/probes` point at folders scanned anyway).
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.')
            || name == "target"
            || name == "out"
            || entry.file_type().is_ok_and(|t| t.is_symlink())
        {
            continue;
        }
        if path.is_dir() {
            files(&path, ext, out);
        } else if name.ends_with(ext) {
            out.push(path);
        }
    }
}

/// GDScript to scan: every `.gd` file, and every ```` ```gdscript ```` block of the Markdown
/// files, as (file, lines before the script in it, script).
fn scripts() -> Vec<(String, usize, String)> {
    let root = repo();
    let (mut gd, mut md) = (Vec::new(), Vec::new());
    files(&root, ".gd", &mut gd);
    files(&root, ".md", &mut md);
    let name = |p: &Path| p.strip_prefix(&root).unwrap_or(p).display().to_string();
    let mut out: Vec<(String, usize, String)> =
        gd.iter().map(|p| (name(p), 0, std::fs::read_to_string(p).expect("read .gd"))).collect();
    for path in &md {
        let text = std::fs::read_to_string(path).expect("read .md");
        let mut block: Option<(usize, String)> = None;
        for (n, line) in text.lines().enumerate() {
            match &mut block {
                None if line.trim_start().starts_with("```gdscript") => block = Some((n + 1, String::new())),
                Some((start, body)) if line.trim_start().starts_with("```") => {
                    out.push((name(path), *start, std::mem::take(body)));
                    block = None;
                }
                Some((_, body)) => {
                    body.push_str(line);
                    body.push('\n');
                }
                None => {}
            }
        }
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier `s` starts with.
fn ident(s: &str) -> &str {
    &s[..s.find(|c: char| !is_ident(c)).unwrap_or(s.len())]
}

/// The string literal `s` starts with (after blanks), without its quotes.
fn literal(s: &str) -> Option<String> {
    let s = s.trim_start();
    let quote = s.chars().next().filter(|&c| c == '"' || c == '\'')?;
    let body = &s[1..];
    body.find(quote).map(|end| body[..end].to_owned())
}

/// Keys `line` reads from the dictionary held by `name`.
fn keys_read(line: &str, name: &str) -> Vec<String> {
    if name.is_empty() || line.trim_start().starts_with('#') {
        return Vec::new();
    }
    let mut keys = Vec::new();
    let mut from = 0;
    while let Some(pos) = line[from..].find(name) {
        let at = from + pos;
        from = at + name.len();
        let before = line[..at].chars().next_back();
        let after = &line[from..];
        if before.is_some_and(|c| is_ident(c) || c == '.') || after.starts_with(is_ident) {
            continue;
        }
        let key = if let Some(rest) = after.strip_prefix('[') {
            literal(rest)
        } else if let Some(rest) = after.strip_prefix(".get(").or_else(|| after.strip_prefix(".has(")) {
            literal(rest)
        } else if let Some(rest) = after.strip_prefix('.') {
            let member = ident(rest);
            // A method of the dictionary (`keys()`, `size()`) is not a key.
            (!member.is_empty() && !rest[member.len()..].trim_start().starts_with('('))
                .then(|| member.to_owned())
        } else {
            None
        };
        keys.extend(key);
    }
    keys
}

/// How a script came to hold a dictionary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Held {
    /// `var name := x.method()`.
    Var,
    /// A function called with `x.method()`.
    Argument,
    /// A handler of the class's signal.
    Signal,
}

/// A key read in a script.
struct Read {
    at: String,
    record: &'static str,
    held: Held,
    key: String,
}

/// Whether `expr` (trimmed) is a call of `method` with no arguments on something.
fn calls(expr: &str, method: &str) -> bool {
    expr.trim().strip_suffix(&format!(".{method}()")).is_some_and(|object| !object.is_empty())
}

/// The first parameter's name of the function `header` (`func name(param: Type) -> …:`)
/// or of an inline `func(param): …` it starts with.
fn first_param(header: &str) -> Option<&str> {
    let params = &header[header.find('(')? + 1..];
    let name = ident(params.trim_start());
    (!name.is_empty()).then_some(name)
}

/// The text between the parenthesis `s` starts after and the one that closes it.
fn argument(s: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' if depth == 0 => return Some(&s[..i]),
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Whether `script` declares `var name` of `class` (`var name: Class`, `var name :=
/// Class.new()`).
fn declared(script: &str, name: &str, class: &str) -> bool {
    script.lines().any(|line| {
        let Some(rest) = line.split("var ").nth(1) else { return false };
        let rest = rest.trim_start();
        if ident(rest) != name {
            return false;
        }
        let decl = rest[name.len()..].trim_start();
        let typed = decl.strip_prefix(':').is_some_and(|t| ident(t.trim_start()) == class);
        typed || decl.strip_prefix(":=").is_some_and(|e| e.trim_start().starts_with(&format!("{class}.new(")))
    })
}

/// Every key the scripts read from the dictionaries.
fn reads() -> Vec<Read> {
    let mut out = Vec::new();
    for (file, offset, script) in scripts() {
        let lines: Vec<&str> = script.lines().collect();
        // Functions: (name, first line, one past the last line).
        let starts: Vec<usize> = (0..lines.len())
            .filter(|&n| lines[n].starts_with("func ") || lines[n].starts_with("static func "))
            .collect();
        let funcs: Vec<(&str, usize, usize)> = starts
            .iter()
            .enumerate()
            .map(|(k, &s)| {
                let header = lines[s].trim_start_matches("static ").trim_start_matches("func ");
                (ident(header), s, starts.get(k + 1).copied().unwrap_or(lines.len()))
            })
            .collect();
        let end_of = |n: usize| funcs.iter().find(|f| f.1 <= n && n < f.2).map_or(lines.len(), |f| f.2);
        let mut read = |dict: &Dict, held: Held, name: &str, range: std::ops::Range<usize>| {
            for n in range {
                for key in keys_read(lines[n], name) {
                    out.push(Read {
                        at: format!("{file}:{}", offset + n + 1),
                        record: dict.record,
                        held,
                        key,
                    });
                }
            }
        };
        for dict in DICTS {
            for (n, line) in lines.iter().enumerate() {
                // var name := x.method()
                if let Some(decl) = line.trim_start().strip_prefix("var ") {
                    let name = ident(decl);
                    if let Some(eq) = decl.find('=') {
                        if calls(&decl[eq + 1..], dict.method) {
                            read(dict, Held::Var, name, n..end_of(n));
                        }
                    }
                }
                // f(x.method())
                for &(f, start, end) in &funcs {
                    let called = line.match_indices(&format!("{f}(")).any(|(i, call)| {
                        let before = line[..i].chars().next_back();
                        !before.is_some_and(|c| is_ident(c) || c == '.')
                            && argument(&line[i + call.len()..]).is_some_and(|arg| calls(arg, dict.method))
                    });
                    if called {
                        if let Some(param) = first_param(lines[start]) {
                            read(dict, Held::Argument, param, start..end);
                        }
                    }
                }
                // emitter.signal.connect(handler)
                let Some(signal) = dict.signal else { continue };
                let Some(i) = line.find(&format!(".{signal}.connect(")) else { continue };
                let emitter_start = line[..i].rfind(|c: char| !is_ident(c)).map_or(0, |j| j + 1);
                if !declared(&script, &line[emitter_start..i], dict.class) {
                    continue;
                }
                let handler = line[i + signal.len() + ".connect(".len() + 1..].trim_start();
                if handler.starts_with("func(") {
                    // An inline function: this line and the deeper-indented ones after it.
                    let indent = |l: &str| l.len() - l.trim_start().len();
                    let last = (n + 1..lines.len())
                        .find(|&m| !lines[m].trim().is_empty() && indent(lines[m]) <= indent(line))
                        .unwrap_or(lines.len());
                    if let Some(param) = first_param(handler) {
                        read(dict, Held::Signal, param, n..last);
                    }
                } else if let Some(&(_, start, end)) = funcs.iter().find(|f| f.0 == ident(handler)) {
                    if let Some(param) = first_param(lines[start]) {
                        read(dict, Held::Signal, param, start..end);
                    }
                }
            }
        }
    }
    out
}

#[test]
fn every_key_a_script_reads_is_a_field_of_its_record() {
    let reads = reads();
    let wrong: Vec<String> = reads
        .iter()
        .filter_map(|r| {
            let dict = DICTS.iter().find(|d| d.record == r.record)?;
            (!dict.keys().contains(&r.key)).then(|| {
                format!("{}: \"{}\" is not a field of {} (fields: {:?})", r.at, r.key, r.record, dict.keys())
            })
        })
        .collect();
    assert!(wrong.is_empty(), "keys read that the record does not have:\n{}", wrong.join("\n"));
    // The scan must find what the probes and the demo read, or it proves nothing.
    let mut found: BTreeMap<(&str, Held), usize> = BTreeMap::new();
    for r in &reads {
        *found.entry((r.record, r.held)).or_default() += 1;
    }
    for wanted in [
        ("DrainageStats", Held::Var),
        ("DrainageStats", Held::Signal),
        ("WaterStats", Held::Var),
        ("HeightmapStats", Held::Var),
        ("HeightmapStats", Held::Signal),
    ] {
        assert!(found.contains_key(&wanted), "no reads found for {wanted:?}; found {found:?}");
    }
}

#[test]
fn the_scan_sees_every_way_a_script_holds_a_dictionary() {
    let read = |line: &str, name: &str| keys_read(line, name);
    assert_eq!(
        read(r#"	var a: int = stats["lakes"] + stats.get("mouths", 0)"#, "stats"),
        ["lakes", "mouths"]
    );
    assert_eq!(
        read("	print(stats.river, stats.keys(), my_stats[\"x\"], o.stats[\"y\"])", "stats"),
        ["river"]
    );
    assert_eq!(read("	# stats[\"commented\"]", "stats"), Vec::<String>::new());
    assert!(calls(" world[\"solver\"].stats()", "stats") && !calls("stats()", "stats"));
    assert!(!calls("hw.get_stats().size()", "get_stats"));
    assert!(declared("@onready var _solver: DrainageSolver = $S", "_solver", "DrainageSolver"));
    assert!(declared("\tvar hw := HeightmapWatershed.new()", "hw", "HeightmapWatershed"));
    assert!(!declared("var player: AnimationPlayer", "player", "HeightmapWatershed"));
    assert_eq!(first_param("func _on_solved(stats: Dictionary) -> void:"), Some("stats"));
    assert_eq!(first_param("func(s): print(s)"), Some("s"));
}

/// The backticked lower-case names of `text` (`` `lakes` ``, not `` `DrainageStats` `` or
/// `` `PlanetLife.figures()` ``).
fn backticked(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| {
            !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_func_docs_list_the_records_keys() {
    let mut sources = Vec::new();
    files(&repo().join("rust/watershed-godot/src"), ".rs", &mut sources);
    let texts: Vec<String> = sources.iter().map(|p| std::fs::read_to_string(p).expect("read")).collect();
    for dict in DICTS {
        let signature = format!("fn {}(&self)", dict.method);
        let text = texts
            .iter()
            .find(|t| t.contains(&signature))
            .unwrap_or_else(|| panic!("no `{signature}` in the Godot crate"));
        let lines: Vec<&str> = text.lines().collect();
        let at = lines.iter().position(|l| l.contains(&signature)).expect("found above");
        let doc: Vec<&str> = lines[..at]
            .iter()
            .rev()
            .map(|l| l.trim())
            .skip_while(|l| l.starts_with("#["))
            .take_while(|l| l.starts_with("///"))
            .collect();
        let listed = backticked(&doc.join(" "));
        assert_eq!(listed, dict.keys(), "the doc comment of {}.{} lists other keys", dict.class, dict.method);
    }
}

#[test]
fn the_addon_readme_lists_the_records_keys() {
    let readme = std::fs::read_to_string(repo().join("addons/watershed/README.md")).expect("README");
    for dict in DICTS {
        let marker = format!("`{}`:", dict.record);
        let (_, rest) = readme
            .split_once(&marker)
            .unwrap_or_else(|| panic!("addons/watershed/README.md lists no keys for {}", dict.record));
        // The list runs to the end of its bullet: the next bullet, blank line or heading.
        let end = rest.find("\n- ").into_iter().chain(rest.find("\n\n")).chain(rest.find("\n#")).min();
        let listed = backticked(&rest[..end.unwrap_or(rest.len())]);
        assert_eq!(listed, dict.keys(), "addons/watershed/README.md's keys for {}", dict.record);
    }
}

#[test]
fn the_records_serialize_flat() {
    // A dictionary and report.json hold numbers under the record's names, no nesting
    // (`HeightmapStats`'s `fit` is flattened in).
    let carve = serde_json::to_value(CarveStats::default()).expect("serializes");
    let values = DICTS.iter().map(|d| (d.record, (d.value)())).chain([("CarveStats", carve)]);
    for (record, value) in values {
        let Value::Object(fields) = value else { panic!("{record} is not an object") };
        for (key, field) in &fields {
            assert!(field.is_number(), "{record}.{key} serializes to {field}, not a number");
        }
    }
}
