//! Every key of worlds.json must have a reader: changing it alone changes some output.
//!
//! A key whose reader arrives with a later stage sits on `PENDING` with that stage's name
//! (empty now that the drainage reads the river and lake keys).

use serde_json::{json, Value};
use watershed::testkit::QUICK_WORLD;
use watershed::{
    render_globe, render_map, world_digests, GlobeView, World, WorldCatalog, WorldSettings, KEYS,
};

/// Keys read only by stages that do not exist yet, and the stage that will read each.
const PENDING: &[(&str, &str)] = &[];

/// The value each key is changed to (the quick world has every subsystem on).
fn alternate(key: &str, current: &Value) -> Option<Value> {
    let num = |v: &Value| v.as_f64().unwrap_or(0.0);
    Some(match key {
        "name" => json!("renamed"),
        "seed" => json!(current.as_u64()? + 1),
        "radius_m" => json!(num(current) * 1.5),
        "relief_m" => json!(num(current) * 0.8),
        "sea_level_m" => json!(num(current) + 10.0),
        "crater_depth_m" => json!(num(current) * 0.5),
        "river_catchment_m2" => json!(num(current) * 2.0),
        "lattice_nodes" => json!(current.as_u64()? + 1000),
        "lake_min_depth_m" => json!(num(current) + 2.0),
        "channel_depth_m" => json!(num(current) * 1.5),
        "river_fill" => json!(0.3),
        "lake_at" => Value::Null,
        "sea" | "rivers" | "lakes" | "craters" | "mesas" | "erosion" => json!(!current.as_bool()?),
        "climate" => json!(-0.8),
        "look_family" => json!(if current == "desert" { "temperate" } else { "desert" }),
        k if k.ends_with("_color") => json!("#123456"),
        "snow_line" => json!(0.2),
        "cliff_slope_deg" => json!(12.0),
        _ => return None,
    })
}

/// Everything a key can show up in: height, drainage, carve and water digests, small renders.
fn outputs(world: &WorldSettings) -> Vec<String> {
    let solved = World::build(world);
    let d = world_digests(world, &solved.planet);
    let map = render_map(&solved, 256, &|_| {});
    let globe = render_globe(&solved, 96, GlobeView::default(), &|_| {});
    let bytes = |img: &watershed::Image| watershed::digest_f64(img.rgb.iter().map(|&b| f64::from(b)));
    vec![
        d.heights,
        solved.network_digest(),
        solved.sets_digest(),
        solved.carve_digest(),
        solved.water_digest(),
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
        let Some(value) = alternate(key, &base[key]) else {
            failures.push(format!("{key}: no alternate value in this test; add one"));
            continue;
        };
        let mut changed = base.clone();
        changed[key] = value;
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
