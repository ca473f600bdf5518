//! Every key of worlds.json must have a reader: changing it alone changes some output.
//!
//! A key whose reader arrives with a later stage sits on `PENDING` with that stage's name
//! (empty now that the drainage reads the river and lake keys).

use serde_json::{json, Value};
use watershed::testkit::QUICK_WORLD;
use watershed::{
    render_globe, render_map, world_digests, GlobeView, KeyKind, KeySpec, KeyValue, LatLon, LookFamily, Rgb,
    World, WorldCatalog, WorldSettings, KEYS,
};

/// Keys read only by stages that do not exist yet, and the stage that will read each.
const PENDING: &[(&str, &str)] = &[];

/// The value a key is changed to, from its kind alone: a new key needs no line here.
fn alternate(spec: &KeySpec, current: KeyValue) -> KeyValue {
    match (spec.kind, current) {
        (_, KeyValue::Name(_)) => KeyValue::Name("renamed".into()),
        (_, KeyValue::Seed(n)) => KeyValue::Seed(n.wrapping_add(1)),
        (KeyKind::Count { max, .. }, KeyValue::Count(n)) => KeyValue::Count((n + 1000).min(max)),
        // A range that hangs on other keys: stay inside it by shrinking towards zero.
        (KeyKind::Number { rule: Some(_), .. }, KeyValue::Number(x)) => {
            KeyValue::Number(if x == 0.0 { 1.0 } else { x * 0.8 })
        }
        (KeyKind::Number { max, log: true, .. }, KeyValue::Number(x)) => {
            KeyValue::Number(if x * 1.5 <= max { x * 1.5 } else { x / 1.5 })
        }
        (KeyKind::Number { min, max, .. }, KeyValue::Number(x)) => {
            let mid = (min + max) / 2.0;
            KeyValue::Number(if (x - mid).abs() > (max - min) / 10.0 { mid } else { (min + mid) / 2.0 })
        }
        (_, KeyValue::Switch(b)) => KeyValue::Switch(!b),
        (_, KeyValue::Colour(Rgb([r, g, b]))) => KeyValue::Colour(Rgb([r ^ 0x40, g ^ 0x40, b ^ 0x40])),
        (_, KeyValue::Family(f)) => {
            let other = LookFamily::ALL.iter().find(|(g, _)| *g != f).map_or(f, |(g, _)| *g);
            KeyValue::Family(other)
        }
        (_, KeyValue::Place(Some(_))) => KeyValue::Place(None),
        (_, KeyValue::Place(None)) => KeyValue::Place(Some(LatLon { lat_deg: 20.0, lon_deg: 30.0 })),
        (_, other) => other,
    }
}

/// Everything a key can show up in: height, drainage, carve and water digests, small renders.
fn outputs(world: &WorldSettings) -> Vec<String> {
    let solved = World::build(world);
    let d = world_digests(world, &solved.terrain.planet);
    let climate = watershed::Climate::of(&solved);
    let map = render_map(&solved, &climate, 256, &|_| {});
    let globe = render_globe(&solved, &climate, 96, GlobeView::default(), &|_| {});
    let bytes = |img: &watershed::Image| watershed::digest_f64(img.rgb.iter().map(|&b| f64::from(b)));
    vec![
        d.heights,
        solved.terrain.network_digest(),
        solved.terrain.sets_digest(),
        solved.terrain.carve_digest(),
        watershed::water_digest(&solved),
        bytes(&map),
        bytes(&globe),
    ]
}

fn load(object: &Value) -> WorldSettings {
    let text = json!({ "worlds": [object] }).to_string();
    match WorldCatalog::from_json(&text) {
        Ok(c) => c.worlds[0].clone(),
        Err(e) => panic!("changed world does not validate:\n{e}"),
    }
}

#[test]
fn every_key_changes_some_output() {
    let base_world = watershed::testkit::world(QUICK_WORLD);
    let base = base_world.to_value();
    let base_outputs = outputs(&base_world);
    let mut failures = Vec::new();
    for spec in KEYS {
        let key = spec.name;
        let value = alternate(spec, spec.value(&base_world));
        if value == spec.value(&base_world) {
            failures.push(format!("{key}: no other value of its kind; teach alternate() one"));
            continue;
        }
        let mut changed = base.clone();
        changed[key] = value.to_json();
        let world = load(&changed);
        let moved = if key == "name" {
            // Identity: the name is read by the catalogue lookup, not by any stage.
            let text = json!({ "worlds": [changed] }).to_string();
            let catalog = WorldCatalog::from_json(&text).expect("valid");
            catalog.get("renamed").is_some() && catalog.get(QUICK_WORLD).is_none()
        } else {
            outputs(&world) != base_outputs
        };
        let pending = PENDING.iter().find(|(k, _)| *k == key);
        match (moved, pending) {
            (true, Some((_, stage))) => {
                failures.push(format!("{key}: now has a reader; remove it from PENDING ({stage})"))
            }
            (false, None) => failures.push(format!("{key}: changing it changes no output")),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "keys without readers:\n{}", failures.join("\n"));
}

#[test]
fn pending_keys_are_real_keys() {
    for (key, _) in PENDING {
        assert!(KEYS.iter().any(|k| k.name == *key), "PENDING lists unknown key {key}");
    }
}
