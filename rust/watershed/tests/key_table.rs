//! The key table is the one place a key is spelled: the starter world, the README tables,
//! reading and writing all follow it.

use watershed::testkit::world;
use watershed::{inspector_markdown, keys_markdown, KeyValue, WorldSettings, KEYS};

/// The text between a README's generated-table markers.
fn generated_table(readme: &str) -> String {
    let path = format!("{}/../../{readme}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let start = text.find("<!-- keys:").unwrap_or_else(|| panic!("{path}: no '<!-- keys:' marker"));
    let body = &text[start..];
    let first_line = body.find('\n').map_or(body.len(), |i| i + 1);
    let end = body.find("<!-- end keys -->").unwrap_or_else(|| panic!("{path}: no end marker"));
    body[first_line..end].to_owned()
}

#[test]
fn readme_tables_are_the_key_table() {
    assert_eq!(generated_table("README.md"), keys_markdown(), "regenerate with `watershed keys`");
    assert_eq!(
        generated_table("addons/watershed/README.md"),
        inspector_markdown(),
        "regenerate with `watershed keys --inspector`"
    );
}

#[test]
fn the_starter_is_the_shipped_home_world() {
    assert_eq!(WorldSettings::starter(), world("home"));
    assert!(WorldSettings::starter().validate().is_empty());
}

#[test]
fn every_key_reads_back_what_it_set_and_refuses_another_kind() {
    let mut w = WorldSettings::starter();
    for spec in KEYS {
        let value = spec.value(&w);
        assert_eq!(value, spec.starter(), "{}: starter and value differ", spec.name);
        assert!(spec.set(&mut w, value.clone()), "{}: refused its own kind", spec.name);
        let other = match value {
            KeyValue::Switch(_) => KeyValue::Number(1.0),
            _ => KeyValue::Switch(true),
        };
        assert!(!spec.set(&mut w, other), "{}: took a value of another kind", spec.name);
        assert_eq!(spec.value(&w), value, "{}: changed by a refused value", spec.name);
    }
}

#[test]
fn names_and_inspector_names_are_unique() {
    for (i, a) in KEYS.iter().enumerate() {
        for b in &KEYS[i + 1..] {
            assert_ne!(a.name, b.name);
            assert_ne!(a.inspector, b.inspector);
        }
    }
}
